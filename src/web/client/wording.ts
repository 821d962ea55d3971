import type { ComponentVerdict, ConsensusStatus, Reason, Verdict } from '../../contract/enums.js';

/** How the homepage says each part of an answer in plain words. */
export const VERDICT_TEXT: Record<Verdict, { label: string; summary: string }> = {
  valid: { label: 'Valid', summary: 'The address exists as written.' },
  correctable: { label: 'Correctable', summary: 'The address exists, but part of the input was fixed or filled in.' },
  invalid: { label: 'Invalid', summary: 'This address could not be confirmed.' },
};

export const COMPONENT_LABELS: Record<string, string> = {
  street: 'Street',
  houseNumber: 'House number',
  unit: 'Flat / unit',
  postcode: 'Postcode',
  city: 'City',
  state: 'Province / state',
  country: 'Country',
};

export const COMPONENT_VERDICT_TEXT: Record<ComponentVerdict, string> = {
  match: 'matches',
  corrected: 'corrected',
  mismatch: 'does not match',
  missing: 'added (was missing)',
  'not-checked': 'could not be checked',
};

export const REASON_TEXT: Record<Reason, string> = {
  no_results: 'No provider found this address.',
  low_confidence: 'The confidence is below the level needed for "valid".',
  no_house_number_match: 'The house number was not found at this street.',
  components_incomplete: 'Parts the address needs were missing and have been filled in.',
  components_corrected: 'Parts of the address were spelled differently and have been corrected.',
};

export const CONSENSUS_TEXT: Record<ConsensusStatus, string> = {
  unavailable: 'No provider answered.',
  'single-provider': 'Only one provider answered, so there is nothing to compare with.',
  agreement: 'All providers that answered agree.',
  'partial-agreement': 'Most providers agree; some differ.',
  disagreement: 'The providers disagree about this address.',
};

export const PROVIDER_NAMES: Record<string, string> = {
  pdok: 'PDOK (Dutch land registry)',
  photon: 'Photon (OpenStreetMap)',
  nominatim: 'Nominatim (OpenStreetMap)',
  local: 'Local index',
};

export const providerName = (id: string): string => PROVIDER_NAMES[id] ?? id;

/** `250` → `4 minutes 10 seconds`; long waits in hours or days, since seconds no longer matter then. */
export function humanDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  if (s < 3600) {
    const m = Math.floor(s / 60);
    return s % 60 === 0 ? unit(m, 'minute') : `${unit(m, 'minute')} ${unit(s % 60, 'second')}`;
  }
  if (s < 86_400) {
    const hours = Math.floor(s / 3600);
    const minutes = Math.ceil((s % 3600) / 60);
    return minutes === 0 ? unit(hours, 'hour') : minutes === 60 ? unit(hours + 1, 'hour') : `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
  }
  const days = Math.floor(s / 86_400);
  const hours = Math.ceil((s % 86_400) / 3600);
  return hours === 0 ? unit(days, 'day') : hours === 24 ? unit(days + 1, 'day') : `${unit(days, 'day')} ${unit(hours, 'hour')}`;
}

export const WINDOW_TEXT: Record<string, string> = {
  five_minute: '5 minutes',
  daily: '24 hours',
  weekly: '7 days',
  monthly: '30 days',
};
