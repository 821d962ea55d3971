import { html } from 'hono/html';
import type { UsageResponse } from '../../contract/usage.js';
import type { WebAssets } from '../assets.js';
import type { Html } from '../layout.js';
import { consoleFrame, type Viewer } from './frame.js';
import { dailyChart, quotaBar } from './usage-charts.js';
import { type FeedbackView, feedbackSection } from './feedback-section.js';

export interface UsageView {
  viewer: Viewer;
  report: UsageResponse;
  /** First day of next UTC month, when the monthly grant comes back. */
  resetsOn: string;
  baseUrl: string;
  notice?: Html;
  /** Acceptance per verdict and day, and the index gaps (owners only). */
  feedback: FeedbackView;
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const sourceName = (s: string) => (s === '' ? '(untagged)' : s);

/** The 429 state in words: what happened, what the API answers, and what to do. */
function creditState(r: UsageResponse, resetsOn: string): Html {
  const available = Math.max(0, r.quota - r.creditsUsedThisMonth) + r.extraCredits;
  if (available === 0) {
    return html`<div class="notice notice--error" role="alert" id="exhausted">
  <h2>Your credits for this month are used up</h2>
  <p>All ${fmt(r.quota)} credits of the ${r.plan} plan are spent and no extra credits remain. Until ${resetsOn} (UTC), when the monthly grant comes back,
  <code>/v1/validate</code>, <code>/v1/autocomplete</code>, <code>/v1/reverse</code> and <code>/v1/usage</code> answer <strong>429</strong> and the widget answers “Monthly project credits exhausted”. Cached answers are not served either.</p>
  <p>To continue now, ask the operator of this service to move the account to a larger plan or add extra credits (<code>addressd account set-plan</code>, <code>addressd credits add</code>). This page keeps working meanwhile.</p>
</div>`;
  }
  if (r.creditsUsedThisMonth >= r.quota * 0.8 && r.extraCredits === 0) {
    return html`<div class="notice notice--warn" role="status"><p>${fmt(available)} credits left this month. When they run out the API answers 429 until ${resetsOn} (UTC); ask the operator for a larger plan or extra credits before then.</p></div>`;
  }
  return html``;
}

function filterForm(r: UsageResponse): Html {
  const current = r.filteredBySource;
  return html`<form method="get" action="/dashboard/usage" class="row filter">
  <div><label for="source">Source tag</label>
  <select id="source" name="source">
    <option value=""${current === null ? html` selected` : ''}>All sources</option>
    ${r.sources
      .filter((s) => s.source !== '')
      .map((s) => html`<option value="${s.source}"${current === s.source ? html` selected` : ''}>${s.source}</option>`)}
    ${current !== null && !r.sources.some((s) => s.source === current) ? html`<option value="${current}" selected>${current}</option>` : ''}
  </select></div>
  <button type="submit" class="secondary">Filter</button>
</form>`;
}

/** `/dashboard/usage`: the figures of GET /v1/usage, from the same code, drawn. */
export function usagePage(assets: WebAssets, view: UsageView): Html {
  const r = view.report;
  const filtered = r.filteredBySource !== null;
  // What customers typed is the owner's to read, as the gaps are (routes/console-usage.ts strips it for members too).
  const owner = view.viewer.role === 'owner';
  const body = html`<h1>Usage</h1>
${view.notice ?? ''}
${creditState(r, view.resetsOn)}
<section aria-labelledby="credits-title" class="panel">
  <h2 id="credits-title">This month</h2>
  <dl class="figures">
    <div><dt>Plan</dt><dd>${r.plan}</dd></div>
    <div><dt>Monthly quota</dt><dd>${fmt(r.quota)}</dd></div>
    <div><dt>Extra credits</dt><dd>${fmt(r.extraCredits)}</dd></div>
    <div><dt>Credits used</dt><dd id="credits-used">${fmt(r.creditsUsedThisMonth)}</dd></div>
  </dl>
  ${quotaBar(r.creditsUsedThisMonth, r.quota, r.extraCredits)}
  <p class="muted">${fmt(r.creditsUsedThisMonth)} of ${fmt(r.quota)} credits used; the grant renews on ${view.resetsOn} (UTC). Live and test keys share them. A call costs one credit per provider that answered; cached answers are free.</p>
</section>
<section aria-labelledby="filter-title">
  <h2 id="filter-title" class="visually-hidden">Filter</h2>
  ${filterForm(r)}
  ${filtered ? html`<p class="muted">Daily credits, totals by endpoint and recent calls show source <code>${r.filteredBySource}</code> only. <a href="/dashboard/usage">Show all</a></p>` : ''}
</section>
<section aria-labelledby="daily-title">
  <h2 id="daily-title">Credits per day, last 14 days</h2>
  ${dailyChart(r.daily)}
  <details><summary>Show as a table</summary>
  <table class="daily"><caption class="visually-hidden">Credits and calls per day</caption>
    <thead><tr><th scope="col">Day (UTC)</th><th scope="col">Calls</th><th scope="col">Credits</th></tr></thead>
    <tbody>${r.daily.map((d) => html`<tr><th scope="row">${d.day}</th><td>${fmt(d.n)}</td><td>${fmt(d.credits)}</td></tr>`)}</tbody>
  </table></details>
</section>
<div class="two-up">
<section aria-labelledby="sources-title">
  <h2 id="sources-title">By source, this month</h2>
  ${r.sources.length
    ? html`<table class="sources"><thead><tr><th scope="col">Source</th><th scope="col">Calls</th><th scope="col">Credits</th></tr></thead>
    <tbody>${r.sources.map((s) => html`<tr><th scope="row">${sourceName(s.source)}</th><td>${fmt(s.n)}</td><td>${fmt(s.credits)}</td></tr>`)}</tbody></table>`
    : html`<p>No calls this month.</p>`}
</section>
<section aria-labelledby="summary-title">
  <h2 id="summary-title">By endpoint and verdict, this month</h2>
  ${r.summary.length
    ? html`<table class="summary"><thead><tr><th scope="col">Endpoint</th><th scope="col">Verdict</th><th scope="col">Calls</th><th scope="col">Credits</th></tr></thead>
    <tbody>${r.summary.map((s) => html`<tr><th scope="row">${s.endpoint}</th><td>${s.verdict ?? '–'}</td><td>${fmt(s.n)}</td><td>${fmt(s.credits)}</td></tr>`)}</tbody></table>`
    : html`<p>No calls this month.</p>`}
</section>
</div>
${feedbackSection(view.feedback)}
<section aria-labelledby="recent-title">
  <h2 id="recent-title">Recent calls</h2>
  ${r.recent.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table of recent calls, scrolls sideways"><table class="recent"><thead><tr><th scope="col">At (UTC)</th><th scope="col">Endpoint</th><th scope="col">Verdict</th><th scope="col">Provider</th><th scope="col">Credits</th><th scope="col">Cached</th><th scope="col">Latency</th><th scope="col">Source</th>${owner ? html`<th scope="col">Query</th>` : ''}</tr></thead>
    <tbody>${r.recent.map(
      (e) => html`<tr><td>${e.at}</td><td>${e.endpoint}</td><td>${e.verdict ?? '–'}</td><td>${e.provider ?? '–'}</td><td>${e.credits}</td><td>${e.cached ? 'yes' : 'no'}</td><td>${e.latency_ms} ms</td><td>${e.source ?? '–'}</td>${owner ? html`<td class="query">${e.query ?? '–'}</td>` : ''}</tr>`,
    )}</tbody></table></div>
    ${owner ? '' : html`<p class="muted" id="queries-hidden">The queries of these calls are shown to the account's owner only: customers' addresses can carry a recipient's name (<code>c/o …</code>).</p>`}`
    : html`<p>No calls yet. Make one with a <a href="/dashboard/keys">secret key</a>:</p>
  <pre><code>curl ${view.baseUrl}/v1/validate -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" -d '{"query":"Damrak 1, 1012 LG Amsterdam","country":"NL"}'</code></pre>`}
  <p class="muted">The same figures as <code>GET /v1/usage</code>; totals may lag by up to a minute.</p>
</section>`;
  return consoleFrame({ assets, title: 'Usage', body, viewer: view.viewer, section: 'usage' });
}
