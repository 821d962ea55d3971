import type { AddressComponents, ComponentVerdicts } from '../contract/address.js';
import type { ProviderId } from '../contract/enums.js';
import type { ProviderCandidate } from '../providers/provider.js';

/** A provider candidate after scoring against the input (before the consensus adjustment). */
export interface ScoredCandidate extends ProviderCandidate {
  provider: ProviderId;
  /** 0-100, input-verification confidence. */
  confidence: number;
  componentVerdicts: ComponentVerdicts;
  /** The input as read against this candidate (free text is read with the candidate's street and places in mind). */
  reading: AddressComponents;
}

/** Per-account verdict thresholds (DESIGN §3 defaults: valid 80, correctable 50). */
export interface Thresholds {
  valid: number;
  correctable: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { valid: 80, correctable: 50 };
