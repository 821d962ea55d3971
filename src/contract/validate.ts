import { z } from '@hono/zod-openapi';
import { text } from './text.js';
import { AddressComponents, ComponentVerdicts, CountryCode, GeoPoint, ResolvedAddress } from './address.js';
import { ConsensusStatus, DifferenceField, Granularity, NextAction, Reason, TraceStatus, Verdict } from './enums.js';
import { ResponseId } from './feedback.js';
import { Near } from './near.js';
import { requestObject } from './request-object.js';

export const Language = text(2, 8).openapi({ example: 'nl-NL' });
export const SourceTag = text(1, 64, { storable: true }).openapi({ description: 'Free-form usage tag' });

export const ValidateRequest = requestObject({
    query: text(1, 500, { storable: true, notBlank: true }).optional(),
    components: AddressComponents.optional(),
    country: CountryCode.optional(),
    language: Language.optional(),
    source: SourceTag.optional(),
    debug: z.boolean().optional(),
    near: Near.optional(),
    // Any string: a stale, cut or foreign id only starts a new chain, so it never costs the customer their check (issue 36).
    previousResponseId: z
      .string()
      .optional()
      .openapi({
        description:
          'Re-validating after the customer edited the address? The `responseId` of the previous answer: the answers form one chain (one checkout), ' +
          'which takes one feedback conclusion, counted once. Any string is accepted: one that is not an id this account received within ' +
          'FEEDBACK_RETENTION_DAYS (unknown, expired, cut, too long) starts a new chain.',
      }),
  })
  .superRefine((value, ctx) => {
    // An empty components object gives the providers nothing to look up: it would bill for nothing.
    const hasComponents = value.components !== undefined && Object.keys(value.components).length > 0;
    if (value.query === undefined && !hasComponents) {
      ctx.addIssue({ code: 'custom', path: [], message: 'Provide query or components' });
    }
  })
  .openapi('ValidateRequest', {
    // The refinement above, as the document can state it.
    anyOf: [{ required: ['query'] }, { required: ['components'] }],
    example: { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' },
  });
export type ValidateRequest = z.infer<typeof ValidateRequest>;

export const TraceStep = z
  .object({
    provider: z.string(),
    status: TraceStatus,
    latencyMs: z.number().int().optional(),
    resultCount: z.number().int().optional(),
    error: z.string().optional(),
  })
  .openapi('TraceStep');
export type TraceStep = z.infer<typeof TraceStep>;

export const Candidate = z
  .object({
    provider: z.string(),
    components: AddressComponents,
    location: GeoPoint.optional(),
    providerConfidence: z.number().min(0).max(1).optional(),
    label: z.string().optional(),
    raw: z.unknown().optional(),
    confidence: z.number().int().min(0).max(100),
    componentVerdicts: ComponentVerdicts,
  })
  .openapi('Candidate');
export type Candidate = z.infer<typeof Candidate>;

export const ConsensusDifference = z
  .object({
    field: DifferenceField,
    selected: z.string().optional(),
    alternative: z.string().optional(),
    distanceMeters: z.number().optional(),
  })
  .openapi('ConsensusDifference');
export type ConsensusDifference = z.infer<typeof ConsensusDifference>;

export const ProviderDisagreement = z
  .object({
    provider: z.string(),
    confidence: z.number().int().min(0).max(100),
    differences: z.array(ConsensusDifference),
  })
  .openapi('ProviderDisagreement');
export type ProviderDisagreement = z.infer<typeof ProviderDisagreement>;

export const ConsensusReport = z
  .object({
    status: ConsensusStatus,
    score: z.number().int().min(0).max(100).nullable(),
    baseConfidence: z.number().int().min(0).max(100),
    confidenceDelta: z.number().int().min(-100).max(100),
    supportingProviders: z.array(z.string()),
    conflictingProviders: z.array(z.string()),
    disagreements: z.array(ProviderDisagreement),
  })
  .openapi('ConsensusReport');
export type ConsensusReport = z.infer<typeof ConsensusReport>;

export const AnswerGranularity = z
  .object({
    input: Granularity.openapi({ description: 'The finest level the input named' }),
    validated: Granularity.openapi({ description: 'The finest level the data confirmed' }),
    geocode: Granularity.openapi({ description: 'The precision of the coordinates' }),
  })
  .openapi('AnswerGranularity', { example: { input: 'unit', validated: 'house', geocode: 'house' } });
export type AnswerGranularity = z.infer<typeof AnswerGranularity>;

export const Alternative = z
  .object({ address: ResolvedAddress, confidence: z.number().int().min(0).max(100) })
  .openapi('Alternative', {
    example: {
      address: {
        street: 'Hauptstraße', houseNumber: '5', postcode: '67433', city: 'Neustadt an der Weinstraße', country: 'DE', lat: 49.3539, lng: 8.1375,
        lines: ['Hauptstraße 5', '67433 Neustadt an der Weinstraße'], formatted: 'Hauptstraße 5, 67433 Neustadt an der Weinstraße', inferred: [],
      },
      confidence: 78,
    },
  });
export type Alternative = z.infer<typeof Alternative>;

const validateResponseShape = {
  verdict: Verdict,
  confidence: z.number().int().min(0).max(100),
  address: ResolvedAddress.nullable(),
  components: ComponentVerdicts,
  provider: z.string().nullable(),
  reasons: z.array(Reason),
  consensus: ConsensusReport,
  granularity: AnswerGranularity,
  action: NextAction,
  unresolved: z.array(z.string()).openapi({ description: 'Parts of the input no component used, in input order', example: ['c/o Müller'] }),
  alternatives: z.array(Alternative).max(3).openapi({ description: 'Other places that fit nearly as well; empty otherwise' }),
};

export const ValidateResponse = z
  .object({
    ...validateResponseShape,
    cached: z.boolean(),
    // Every answer its own, cached ones and batch items too; the demo has none (issue 29).
    responseId: ResponseId,
    candidates: z.array(Candidate).optional(),
    trace: z.array(TraceStep).optional(),
  })
  .openapi('ValidateResponse');
export type ValidateResponse = z.infer<typeof ValidateResponse>;

export const DemoValidateResponse = z.object(validateResponseShape).openapi('DemoValidateResponse');
export type DemoValidateResponse = z.infer<typeof DemoValidateResponse>;

export const DemoValidateRequest = requestObject({ query: text(1, 200, { notBlank: true }) })
  .openapi('DemoValidateRequest', { example: { query: 'Damrak 1, Amsterdam' } });
export type DemoValidateRequest = z.infer<typeof DemoValidateRequest>;
