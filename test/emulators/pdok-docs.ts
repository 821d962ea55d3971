import { createHash } from 'node:crypto';
import type { Entity } from './search.js';

/**
 * Renders emulator entities as PDOK Locatieserver v3_1 Solr documents: the field names,
 * types (huisnummer is a number, postcode `1012LG`, WKT `POINT(lng lat)`) and id prefixes
 * of the real service.
 */
export type PdokDoc = Record<string, string | number | string[]>;

const PROVINCES: Record<string, [code: string, abbreviation: string]> = {
  Groningen: ['PV20', 'GR'],
  Friesland: ['PV21', 'FR'],
  Drenthe: ['PV22', 'DR'],
  Overijssel: ['PV23', 'OV'],
  Flevoland: ['PV24', 'FL'],
  Gelderland: ['PV25', 'GE'],
  Utrecht: ['PV26', 'UT'],
  'Noord-Holland': ['PV27', 'NH'],
  'Zuid-Holland': ['PV28', 'ZH'],
  Zeeland: ['PV29', 'ZE'],
  'Noord-Brabant': ['PV30', 'NB'],
  Limburg: ['PV31', 'LI'],
};

const TYPE_OF = { address: 'adres', street: 'weg', postcode: 'postcode', city: 'woonplaats' } as const;
const PREFIX = { adres: 'adr', weg: 'weg', postcode: 'pcd', woonplaats: 'wpl' } as const;

function hash(seed: string): string {
  return createHash('md5').update(seed).digest('hex');
}

/** Stable numeric code of `length` digits derived from a seed (gemeentecode, BAG ids). */
function digits(seed: string, length: number): string {
  return BigInt(`0x${hash(seed)}`).toString().slice(0, length).padStart(length, '0');
}

export function pdokPostcode(postcode: string): string {
  return postcode.replace(/\s+/g, '').toUpperCase();
}

/** `12B-2` → huisnummer 12, huisletter B, huisnummertoevoeging 2 (BAG keeps them apart). */
export function splitHouseNumber(value: string): { huisnummer: number; huisletter?: string; huisnummertoevoeging?: string } {
  const m = /^(\d+)\s*([A-Za-z])?(?:[-\s/]+([A-Za-z0-9]+))?$/.exec(value.trim());
  if (!m) return { huisnummer: Number.parseInt(value, 10) || 0 };
  return {
    huisnummer: Number(m[1]),
    ...(m[2] ? { huisletter: m[2].toUpperCase() } : {}),
    ...(m[3] ? { huisnummertoevoeging: m[3] } : {}),
  };
}

/** Approximate WGS84 → Rijksdriehoek (RD New), good to a metre: enough for a realistic `centroide_rd`. */
function toRd(lat: number, lng: number): [number, number] {
  const f = 0.36 * (lat - 52.1551744);
  const l = 0.36 * (lng - 5.38720621);
  const x = 155000 + 190094.945 * l - 11832.228 * f * l - 114.221 * f ** 2 * l - 32.391 * l ** 3 - 0.705 * f - 2.34 * f ** 3 * l - 0.608 * f * l ** 3 + 0.008 * l ** 2 + 0.148 * f ** 2 * l ** 3;
  const y = 463000 + 309056.544 * f + 3638.893 * l ** 2 + 73.077 * f ** 2 - 157.984 * f * l ** 2 + 59.788 * f ** 3 + 0.433 * l - 6.439 * f ** 2 * l ** 2 - 0.032 * f * l + 0.092 * l ** 4 - 0.054 * f * l ** 4;
  return [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000];
}

export function pdokId(entity: Entity): string {
  const type = TYPE_OF[entity.kind];
  return `${PREFIX[type]}-${hash(entity.key)}`;
}

/** Every stored field of the document (what `fl=*` returns); `score` is added per query. */
export function pdokDoc(entity: Entity): PdokDoc {
  const type = TYPE_OF[entity.kind];
  const [provinciecode, provincieafkorting] = PROVINCES[entity.state ?? ''] ?? ['PV00', '--'];
  const gemeente = entity.municipality ?? entity.city;
  const gemeentecode = digits(`gem:${gemeente}`, 4);
  const openbareruimteId = `${gemeentecode}30${digits(`or:${entity.city}:${entity.street}`, 10)}`;
  const [x, y] = toRd(entity.lat, entity.lng);
  const common: PdokDoc = {
    bron: type === 'weg' ? 'BAG/NWB' : 'BAG',
    woonplaatscode: digits(`wpl:${entity.city}`, 4),
    type,
    woonplaatsnaam: entity.city,
    gemeentecode,
    gemeentenaam: gemeente,
    id: pdokId(entity),
    provinciecode,
    ...(entity.state ? { provincienaam: entity.state } : {}),
    provincieafkorting,
    centroide_ll: `POINT(${entity.lng} ${entity.lat})`,
    centroide_rd: `POINT(${x} ${y})`,
  };
  const postcode = entity.postcode ? pdokPostcode(entity.postcode) : undefined;
  if (type === 'woonplaats') {
    return { ...common, weergavenaam: `${entity.city}, ${entity.city}, ${entity.state ?? ''}`, identificatie: common.woonplaatscode as string };
  }
  const street: PdokDoc = {
    ...common,
    openbareruimtetype: 'Weg',
    straatnaam: entity.street ?? '',
    straatnaam_verkort: entity.street ?? '',
    openbareruimte_id: openbareruimteId,
  };
  if (type === 'weg') return { ...street, weergavenaam: `${entity.street}, ${entity.city}`, identificatie: openbareruimteId, nwb_id: digits(`nwb:${entity.key}`, 6) };
  if (type === 'postcode') {
    return { ...street, postcode: postcode ?? '', weergavenaam: `${entity.street}, ${postcode} ${entity.city}`, identificatie: `${openbareruimteId}_${postcode}_${common.woonplaatscode}` };
  }
  const parts = splitHouseNumber(entity.houseNumber ?? '');
  const label = `${parts.huisnummer}${parts.huisletter ?? ''}${parts.huisnummertoevoeging ? `-${parts.huisnummertoevoeging}` : ''}`;
  const nummeraanduiding = `${gemeentecode}20${digits(`na:${entity.key}`, 10)}`;
  const verblijfsobject = `${gemeentecode}01${digits(`vbo:${entity.key}`, 10)}`;
  return {
    ...street,
    huis_nlt: label,
    weergavenaam: `${entity.street} ${label}, ${postcode} ${entity.city}`,
    adrestype: 'hoofdadres',
    identificatie: `${verblijfsobject}-${nummeraanduiding}`,
    postcode: postcode ?? '',
    nummeraanduiding_id: nummeraanduiding,
    adresseerbaarobject_id: verblijfsobject,
    ...parts,
    gekoppeld_perceel: [`${provincieafkorting}${digits(`kad:${entity.key}`, 2)}-A-${digits(`perc:${entity.key}`, 4)}`],
  };
}
