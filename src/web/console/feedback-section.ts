import { html } from 'hono/html';
import { FEEDBACK_CONCLUSIONS } from '../../contract/feedback.js';
import type { AcceptanceRow } from '../../feedback/feedback-store.js';
import { type GapFields, type GapKind, gapText } from '../../feedback/gap-rule.js';
import type { GapRow } from '../../feedback/gap-store.js';
import type { Html } from '../layout.js';
import { acceptanceChart, acceptanceGrid, acceptanceTotals, CONCLUSION_LABELS, conclusionsTotal as total } from './acceptance-chart.js';

export interface FeedbackView {
  /** The report's 14 days, oldest first. */
  days: readonly string[];
  acceptance: readonly AcceptanceRow[];
  /** The account's index gaps; null for a member (owners only, issue 29). */
  gaps: readonly GapRow[] | null;
  retentionDays: number;
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const share = (part: number, whole: number) => (whole > 0 ? ` (${Math.round((part / whole) * 100)} %)` : '');
const address = (f: GapFields) => gapText(f) || '–';
const KIND: Record<GapKind, string> = { street: 'no such street', house: 'no such number' };

/** `/dashboard/usage`: what customers finally used (POST /v1/validate/feedback), and the index gaps it revealed. */
export function feedbackSection(view: FeedbackView): Html {
  const grid = acceptanceGrid(view.days, view.acceptance);
  const totals = acceptanceTotals(grid);
  const correctable = totals.get('correctable')!;
  const invalid = totals.get('invalid')!;
  return html`<section aria-labelledby="feedback-title" id="feedback">
  <h2 id="feedback-title">What customers used, last 14 days</h2>
  <p class="muted">From <code>POST /v1/validate/feedback</code>, by the day and verdict of the answer.</p>
  <dl class="figures">
    <div><dt>Correctable answers accepted as corrected</dt><dd id="accepted-corrections">${fmt(correctable.validated_used)} of ${fmt(total(correctable))}${share(correctable.validated_used, total(correctable))}</dd></div>
    <div><dt>Invalid answers customers overrode</dt><dd id="overridden-invalid">${fmt(invalid.user_used)} of ${fmt(total(invalid))}${share(invalid.user_used, total(invalid))}</dd></div>
  </dl>
  ${acceptanceChart(view.days, grid, totals)}
  <details><summary>Show as a table</summary>
  <table class="acceptance"><caption class="visually-hidden">Feedback per verdict and conclusion, last 14 days</caption>
    <thead><tr><th scope="col">Verdict</th>${FEEDBACK_CONCLUSIONS.map((k) => html`<th scope="col">${CONCLUSION_LABELS[k]}</th>`)}</tr></thead>
    <tbody>${[...totals].map(([verdict, counts]) => html`<tr><th scope="row">${verdict}</th>${FEEDBACK_CONCLUSIONS.map((k) => html`<td>${fmt(counts[k])}</td>`)}</tr>`)}</tbody>
  </table></details>
</section>
${view.gaps === null ? '' : gapsSection(view.gaps, view.retentionDays)}`;
}

function gapsSection(gaps: readonly GapRow[], retentionDays: number): Html {
  return html`<section aria-labelledby="gaps-title" id="gaps">
  <h2 id="gaps-title">Index gaps</h2>
  <p class="muted">Addresses your customers used although we found no such street or house number: candidates to add to OpenStreetMap or your address feed. Kept ${retentionDays} days after last seen; the operator lists every account's with <code>addressd gaps</code>.</p>
  ${gaps.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table of index gaps, scrolls sideways"><table class="gaps"><thead><tr><th scope="col">Times</th><th scope="col">Missing</th><th scope="col">As typed</th><th scope="col">As we read it</th><th scope="col">Last seen (UTC)</th></tr></thead>
    <tbody>${gaps.map((g) => html`<tr><td>${fmt(g.count)}</td><td>${KIND[g.kind]}</td><td>${address(g.typed)}</td><td>${address(g.read)}</td><td>${g.lastSeen}</td></tr>`)}</tbody></table></div>`
    : html`<p>None yet.</p>`}
</section>`;
}
