import { z } from '@hono/zod-openapi';

/** Every enumeration of SPEC "Enumerations", one schema each, named as in SPEC. */
export const ProviderId = z.enum(['pdok', 'photon', 'nominatim', 'local']).openapi('ProviderId');
export type ProviderId = z.infer<typeof ProviderId>;
export const PROVIDER_IDS = ProviderId.options;

export const Verdict = z.enum(['valid', 'correctable', 'invalid']).openapi('Verdict');
export type Verdict = z.infer<typeof Verdict>;

export const Reason = z
  .enum(['no_results', 'low_confidence', 'no_house_number_match', 'components_incomplete', 'components_corrected'])
  .openapi('Reason');
export type Reason = z.infer<typeof Reason>;

export const ComponentVerdict = z
  .enum(['match', 'corrected', 'mismatch', 'missing', 'not-checked'])
  .openapi('ComponentVerdict');
export type ComponentVerdict = z.infer<typeof ComponentVerdict>;

export const ConsensusStatus = z
  .enum(['unavailable', 'single-provider', 'agreement', 'partial-agreement', 'disagreement'])
  .openapi('ConsensusStatus');
export type ConsensusStatus = z.infer<typeof ConsensusStatus>;

export const TraceStatus = z
  .enum(['ok', 'error', 'timeout', 'aborted', 'skipped', 'circuit-open', 'no-coverage', 'unsupported', 'unknown-provider'])
  .openapi('TraceStatus');
export type TraceStatus = z.infer<typeof TraceStatus>;

export const DifferenceField = z
  .enum(['street', 'houseNumber', 'postcode', 'city', 'state', 'country', 'location'])
  .openapi('ConsensusDifferenceField');
export type DifferenceField = z.infer<typeof DifferenceField>;

export const DemoWindow = z.enum(['five_minute', 'daily', 'weekly', 'monthly']).openapi('DemoLimitWindow');
export type DemoWindow = z.infer<typeof DemoWindow>;

export const PlanId = z.enum(['free', 'starter', 'growth', 'scale']).openapi('PlanId');
export type PlanId = z.infer<typeof PlanId>;

export const Environment = z.enum(['live', 'test']).openapi('Environment');
export type Environment = z.infer<typeof Environment>;

/** How fine an address is (issue 27): `interpolated` only for coordinates placed between known house numbers. */
export const Granularity = z
  .enum(['unit', 'house', 'interpolated', 'street', 'postcode', 'place', 'region', 'country', 'none'])
  .openapi('Granularity', { example: 'house' });
export type Granularity = z.infer<typeof Granularity>;

/** What a checkout does with the answer (issue 27; docs/answer.md): Google's ACCEPT / CONFIRM / FIX / CONFIRM_ADD_SUBPREMISES. */
export const NextAction = z
  .enum(['accept', 'confirm', 'fix', 'add_unit'])
  .openapi('NextAction', { description: 'What the checkout does next (docs/answer.md)', example: 'accept' });
export type NextAction = z.infer<typeof NextAction>;
