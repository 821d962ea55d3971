import type { ResolvedAddress } from '../../contract/address.js';
import type { ComponentVerdict } from '../../contract/enums.js';
import type { DemoValidateResponse } from '../../contract/validate.js';
import { h } from './dom.js';
import { alternativeSpots, locatorMap } from './locator-map.js';
import {
  COMPONENT_LABELS,
  COMPONENT_VERDICT_TEXT,
  CONSENSUS_TEXT,
  providerName,
  REASON_TEXT,
  VERDICT_TEXT,
} from './wording.js';

const ICONS = { valid: '✓', correctable: '!', invalid: '✕' } as const;

/** One answer, readable top to bottom: verdict, confidence, parts, map, reasons, consensus. */
export function renderResult(response: DemoValidateResponse, query: string): HTMLElement {
  const verdict = VERDICT_TEXT[response.verdict];
  // The answer's own postal lines (engine/postal-lines.ts): the envelope the service would write.
  const lines = response.address?.lines ?? [];
  return h(
    'article',
    { class: `result result--${response.verdict}`, 'aria-labelledby': 'result-title', 'data-verdict': response.verdict },
    h(
      'header',
      { class: 'result-head' },
      h('p', { class: `badge badge--${response.verdict}` }, h('span', { 'aria-hidden': 'true' }, ICONS[response.verdict]), ' ', verdict.label),
      h('h3', { id: 'result-title' }, lines.length ? lines.join(', ') : 'No address found'),
      h('p', { class: 'result-summary' }, verdict.summary, ' ', h('span', { class: 'muted' }, `You typed: “${query}”`)),
    ),
    confidence(response.confidence),
    h(
      'div',
      { class: 'result-grid' },
      components(response),
      response.address ? where(response, response.address) : null,
    ),
    reasons(response),
    consensus(response),
    h('details', { class: 'raw' }, h('summary', {}, 'Response JSON'), h('pre', {}, h('code', {}, JSON.stringify(response, null, 2)))),
  );
}

function confidence(value: number): HTMLElement {
  return h(
    'div',
    { class: 'confidence' },
    h('label', { for: 'result-confidence' }, 'Confidence'),
    h('meter', { id: 'result-confidence', min: 0, max: 100, low: 50, high: 80, optimum: 100, value }, `${value} of 100`),
    h('strong', { class: 'confidence-value' }, String(value)),
    h('span', { class: 'muted' }, ' / 100'),
  );
}

function components(response: DemoValidateResponse): HTMLElement {
  const rows = Object.entries(response.components).flatMap(([key, v]) => {
    if (!v) return [];
    const value = response.address?.[key as keyof ResolvedAddress];
    return [
      h(
        'tr',
        { 'data-component': key },
        h('th', { scope: 'row' }, COMPONENT_LABELS[key] ?? key),
        h('td', {}, value === undefined ? '—' : String(value)),
        h('td', {}, componentBadge(v)),
      ),
    ];
  });
  return h(
    'section',
    { class: 'components' },
    h('h4', {}, 'Address, part by part'),
    rows.length
      ? h('table', {}, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Part'), h('th', { scope: 'col' }, 'Found'), h('th', { scope: 'col' }, 'Check'))), h('tbody', {}, ...rows))
      : h('p', {}, 'Nothing to compare: no result was found.'),
  );
}

function componentBadge(v: ComponentVerdict): HTMLElement {
  return h('span', { class: `chip chip--${v}` }, COMPONENT_VERDICT_TEXT[v]);
}

function where(response: DemoValidateResponse, a: ResolvedAddress): HTMLElement {
  const osm = `https://www.openstreetmap.org/?mlat=${a.lat}&mlon=${a.lng}#map=18/${a.lat}/${a.lng}`;
  return h(
    'section',
    { class: 'where' },
    h('h4', {}, 'Where'),
    locatorMap(a.lat, a.lng, alternativeSpots(response)),
    h('p', { class: 'muted' }, `${a.lat.toFixed(5)}, ${a.lng.toFixed(5)} · `, h('a', { href: osm, rel: 'noopener' }, 'Open in OpenStreetMap')),
  );
}

function reasons(response: DemoValidateResponse): HTMLElement {
  return h(
    'section',
    { class: 'reasons' },
    h('h4', {}, 'Why this verdict'),
    response.reasons.length
      ? h('ul', {}, ...response.reasons.map((r) => h('li', { 'data-reason': r }, REASON_TEXT[r])))
      : h('p', {}, 'Every part of the address matched.'),
  );
}

function consensus(response: DemoValidateResponse): HTMLElement {
  const c = response.consensus;
  const total = c.supportingProviders.length + c.conflictingProviders.length;
  const delta = c.confidenceDelta;
  return h(
    'section',
    { class: 'consensus' },
    h('h4', {}, 'Consensus across providers'),
    h('p', {}, CONSENSUS_TEXT[c.status], c.score !== null ? ` ${c.supportingProviders.length} of ${total} providers support this address (${c.score}%).` : ''),
    c.supportingProviders.length || c.conflictingProviders.length
      ? h(
          'ul',
          { class: 'providers' },
          ...c.supportingProviders.map((p) => h('li', { class: 'supports' }, h('span', { 'aria-hidden': 'true' }, '✓ '), `${providerName(p)} supports it`, p === response.provider ? ' (best result)' : '')),
          ...c.disagreements.map((d) =>
            h(
              'li',
              { class: 'conflicts' },
              h('span', { 'aria-hidden': 'true' }, '✕ '),
              `${providerName(d.provider)} differs: `,
              d.differences.map((diff) => (diff.field === 'location' && diff.distanceMeters !== undefined ? `location ${Math.round(diff.distanceMeters)} m away` : `${COMPONENT_LABELS[diff.field] ?? diff.field} “${diff.alternative ?? '—'}”`)).join(', '),
            ),
          ),
        )
      : null,
    h('p', { class: 'muted' }, `Confidence ${c.baseConfidence} from the best result, ${delta >= 0 ? '+' : '−'}${Math.abs(delta)} for the consensus.`),
  );
}
