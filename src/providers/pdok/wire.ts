import { z } from 'zod';

/**
 * PDOK Locatieserver v3_1 wire format (`/free`, `/suggest`, `/lookup`): a Solr envelope
 * `{response: {numFound, start, maxScore, docs}}`; `/suggest` adds `highlighting`.
 * Only the fields we map are declared; the rest pass through into `raw`.
 */
export const WKT_POINT = /^POINT\(\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s+(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*\)$/;

export const PdokDoc = z.looseObject({
  id: z.string(),
  type: z.string(),
  weergavenaam: z.string().optional(),
  straatnaam: z.string().optional(),
  huisnummer: z.number().int().optional(),
  huisletter: z.string().optional(),
  huisnummertoevoeging: z.string().optional(),
  postcode: z.string().optional(),
  woonplaatsnaam: z.string().optional(),
  gemeentenaam: z.string().optional(),
  provincienaam: z.string().optional(),
  centroide_ll: z.string().regex(WKT_POINT, 'expected WKT POINT(lng lat)').optional(),
  score: z.number().optional(),
});
export type PdokDoc = z.infer<typeof PdokDoc>;

export const PdokResponse = z.looseObject({
  response: z.looseObject({
    numFound: z.number().int().min(0),
    start: z.number().int().min(0).optional(),
    maxScore: z.number().optional(),
    docs: z.array(PdokDoc),
  }),
  highlighting: z.record(z.string(), z.unknown()).optional(),
});
export type PdokResponse = z.infer<typeof PdokResponse>;

/** The stored fields we ask for with `fl`; `score` is Solr's relevance. */
export const PDOK_FIELDS = [
  'id',
  'type',
  'weergavenaam',
  'straatnaam',
  'huisnummer',
  'huisletter',
  'huisnummertoevoeging',
  'postcode',
  'woonplaatsnaam',
  'gemeentenaam',
  'provincienaam',
  'centroide_ll',
  'score',
] as const;
