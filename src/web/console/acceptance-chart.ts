import { html } from 'hono/html';
import { FEEDBACK_CONCLUSIONS, type FeedbackConclusion, type FeedbackCounts, noFeedback } from '../../contract/feedback.js';
import { Verdict } from '../../contract/enums.js';
import type { AcceptanceRow } from '../../feedback/feedback-store.js';
import type { Html } from '../layout.js';
import { DAY_CHART, dayAxes } from './usage-charts.js';

/**
 * Acceptance per verdict and per day (issue 29): for each day three stacked bars (valid,
 * correctable, invalid answers that got feedback), split by what the customer used. Server-rendered
 * SVG like usage-charts.ts: no script, colours from CSS, each bar titled with its figures.
 */
const VERDICTS = Verdict.options;
const fmt = (n: number): string => n.toLocaleString('en-US');

export const CONCLUSION_LABELS: Record<FeedbackConclusion, string> = {
  validated_used: 'used our address',
  user_used: 'kept their own',
  unvalidated_used: 'used an unvalidated one',
  unused: 'abandoned',
};

type Counts = FeedbackCounts;
/** Answers that got any feedback. */
export const conclusionsTotal = (c: Counts): number => FEEDBACK_CONCLUSIONS.reduce((n, k) => n + c[k], 0);
const sum = conclusionsTotal;

/** Counts per day and verdict, every day and verdict present. */
export function acceptanceGrid(days: readonly string[], rows: readonly AcceptanceRow[]): Map<string, Map<Verdict, Counts>> {
  const grid = new Map(days.map((d) => [d, new Map(VERDICTS.map((v) => [v, noFeedback()]))]));
  for (const r of rows) {
    const cell = grid.get(r.day)?.get(r.verdict as Verdict);
    if (cell) cell[r.conclusion] += r.n;
  }
  return grid;
}

/** Totals per verdict over the days. */
export function acceptanceTotals(grid: Map<string, Map<Verdict, Counts>>): Map<Verdict, Counts> {
  const totals = new Map(VERDICTS.map((v) => [v, noFeedback()]));
  for (const perVerdict of grid.values()) {
    for (const [verdict, counts] of perVerdict) for (const k of FEEDBACK_CONCLUSIONS) totals.get(verdict)![k] += counts[k];
  }
  return totals;
}

export function acceptanceChart(days: readonly string[], grid: Map<string, Map<Verdict, Counts>>, totals: Map<Verdict, Counts>): Html {
  const { width, height, left, top, plot } = DAY_CHART;
  const max = Math.max(1, ...[...grid.values()].flatMap((m) => [...m.values()].map(sum)));
  const step = (width - left) / Math.max(days.length, 1);
  const barWidth = (step * 0.8) / VERDICTS.length;
  const correctable = totals.get('correctable')!;
  const invalid = totals.get('invalid')!;
  const label =
    `Feedback per day and verdict, ${days[0] ?? ''} to ${days.at(-1) ?? ''}: ` +
    `${fmt(correctable.validated_used)} of ${fmt(sum(correctable))} correctable answers accepted as corrected, ` +
    `${fmt(invalid.user_used)} of ${fmt(sum(invalid))} invalid answers overridden`;
  const scale = (n: number) => (n / max) * plot;
  return html`<svg class="acceptance-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">
  ${dayAxes(max)}
  ${days.map((day, i) => {
    const x0 = left + i * step + step * 0.1;
    return html`<g class="feedback-day" data-day="${day}">
    ${VERDICTS.map((verdict, j) => {
      const counts = grid.get(day)!.get(verdict)!;
      const x = (x0 + j * barWidth).toFixed(1);
      let y = top + plot;
      const title = `${day}, ${verdict}: ${FEEDBACK_CONCLUSIONS.map((k) => `${fmt(counts[k])} ${CONCLUSION_LABELS[k]}`).join(', ')}`;
      return html`<g class="cell verdict-${verdict}" data-verdict="${verdict}" data-total="${sum(counts)}" data-validated-used="${counts.validated_used}" data-user-used="${counts.user_used}">
      <title>${title}</title>
      ${FEEDBACK_CONCLUSIONS.filter((k) => counts[k] > 0).map((k) => {
        const h = scale(counts[k]);
        y -= h;
        return html`<rect class="seg seg-${k}" x="${x}" y="${y.toFixed(1)}" width="${(barWidth * 0.9).toFixed(1)}" height="${h.toFixed(1)}"></rect>`;
      })}
    </g>`;
    })}
    ${i % 2 === days.length % 2 ? '' : html`<text class="tick" x="${(x0 + (barWidth * VERDICTS.length) / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${day.slice(5)}</text>`}
  </g>`;
  })}
</svg>
<ul class="legend">${FEEDBACK_CONCLUSIONS.map((k) => html`<li><span class="swatch seg-${k}" aria-hidden="true"></span>${CONCLUSION_LABELS[k]} (<code>${k}</code>)</li>`)}</ul>
<p class="muted">Each day shows three bars: valid, correctable and invalid answers, left to right.</p>`;
}
