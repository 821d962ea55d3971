import type { DemoRateLimitError } from '../../contract/errors.js';
import { h } from './dom.js';
import { humanDuration, WINDOW_TEXT } from './wording.js';

/** The 429 state, said kindly: what happened, when it clears, what still works, what to do. */
export function renderLimit(error: DemoRateLimitError): HTMLElement {
  const windows = error.limits.map((l) =>
    h('li', { 'data-window': l.window }, `${l.max} lookups per ${WINDOW_TEXT[l.window] ?? `${l.periodSeconds} seconds`}: free again in ${humanDuration(l.retryAfterSeconds)}`),
  );
  return h(
    'article',
    { class: 'notice notice--limit', 'aria-labelledby': 'limit-title', 'data-state': 'limited' },
    h('h3', { id: 'limit-title' }, 'You have used the demo’s free lookups for now'),
    h('p', {}, `Thanks for trying it out! New lookups work again in `, h('strong', {}, humanDuration(error.retryAfterSeconds)), '.'),
    h('ul', {}, ...windows),
    h('p', {}, 'Meanwhile the three samples and addresses someone already looked up still answer right away.'),
    h('p', {}, `A free account includes ${error.freeMonthlyCredits} credits every month, with no demo limits.`),
  );
}

export function renderMessage(title: string, text: string, state: string): HTMLElement {
  return h(
    'article',
    { class: 'notice', 'aria-labelledby': 'notice-title', 'data-state': state },
    h('h3', { id: 'notice-title' }, title),
    h('p', {}, text),
  );
}

/**
 * Above a sample's answer: it was recorded from PDOK, Photon and Nominatim, not looked up on this
 * server, so an offline or `local`-only deployment never passes it off as its own finding.
 */
export function renderRecordedLabel(): HTMLElement {
  return h(
    'p',
    { class: 'recorded', 'data-recorded': 'true' },
    h('strong', {}, 'Recorded example'),
    ': the answer PDOK, Photon and Nominatim gave for this sample, shown without a lookup on this server. Type any address for a live check.',
  );
}
