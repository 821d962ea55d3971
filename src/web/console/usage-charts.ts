import { html } from 'hono/html';
import type { Html } from '../layout.js';

/**
 * Server-rendered SVG charts: no script, no library, colours from CSS custom properties so
 * both colour schemes work. Each chart is one `role="img"` with a name saying what it shows.
 */
const fmt = (n: number): string => n.toLocaleString('en-US');

/** Credits used this month against the plan quota; extra credits in use show beyond it. */
export function quotaBar(used: number, quota: number, extraLeft: number): Html {
  const width = 600;
  const total = Math.max(quota, used, 1);
  const grant = Math.min(used, quota);
  const beyond = Math.max(0, used - quota);
  const share = quota > 0 ? Math.round((used / quota) * 100) : 0;
  const label = `${fmt(used)} of ${fmt(quota)} monthly credits used (${share} %)${beyond ? `, ${fmt(beyond)} taken from extra credits` : ''}; ${fmt(extraLeft)} extra credits left`;
  const x = (n: number) => ((n / total) * width).toFixed(1);
  return html`<svg class="quota-bar" viewBox="0 0 ${width} 24" preserveAspectRatio="none" role="img" aria-label="${label}">
  <rect class="bar-track" x="0" y="0" width="${width}" height="24" rx="6"></rect>
  <rect class="bar-used${share >= 100 ? ' bar-full' : share >= 80 ? ' bar-near' : ''}" x="0" y="0" width="${x(grant)}" height="24" rx="6"></rect>
  ${beyond ? html`<rect class="bar-extra" x="${x(quota)}" y="0" width="${x(beyond)}" height="24"></rect>` : ''}
</svg>`;
}

export interface DayPoint {
  day: string;
  n: number;
  credits: number;
}

/** The frame of the per-day charts (credits here, feedback in acceptance-chart.ts): size, margins, plot height. */
export const DAY_CHART = { width: 640, height: 200, left: 40, top: 12, plot: 160 } as const;

/** A per-day chart's x axis and its two y ticks, 0 and `max`. */
export function dayAxes(max: number): Html {
  const { width, left, top, plot } = DAY_CHART;
  return html`<line class="axis" x1="${left}" y1="${top + plot}" x2="${width}" y2="${top + plot}"></line>
  <text class="tick" x="${left - 6}" y="${top + 4}" text-anchor="end">${fmt(max)}</text>
  <text class="tick" x="${left - 6}" y="${top + plot + 4}" text-anchor="end">0</text>`;
}

/** Credits per day for the 14 days of the report, oldest on the left, each bar titled with its figures. */
export function dailyChart(days: DayPoint[]): Html {
  const { width, height, left, top, plot } = DAY_CHART;
  const max = Math.max(1, ...days.map((d) => d.credits));
  const step = (width - left) / Math.max(days.length, 1);
  const barWidth = step * 0.7;
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  const busiest = days.reduce<DayPoint | undefined>((best, d) => (!best || d.credits > best.credits ? d : best), undefined);
  const label = `Credits per day, ${days[0]?.day ?? ''} to ${days.at(-1)?.day ?? ''}: ${fmt(total)} in total${busiest && busiest.credits > 0 ? `, most on ${busiest.day} (${fmt(busiest.credits)})` : ''}`;
  const y = (v: number) => top + plot - (v / max) * plot;
  return html`<svg class="daily-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">
  ${dayAxes(max)}
  <line class="grid" x1="${left}" y1="${top}" x2="${width}" y2="${top}"></line>
  ${days.map((d, i) => {
    const x = left + i * step + (step - barWidth) / 2;
    const barTop = y(d.credits);
    return html`<g class="day" data-day="${d.day}" data-credits="${d.credits}">
    <title>${d.day}: ${fmt(d.credits)} credits, ${fmt(d.n)} calls</title>
    <rect class="bar" x="${x.toFixed(1)}" y="${barTop.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(top + plot - barTop).toFixed(1)}"></rect>
    ${i % 2 === days.length % 2 ? '' : html`<text class="tick" x="${(x + barWidth / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${d.day.slice(5)}</text>`}
  </g>`;
  })}
</svg>`;
}
