import type { Hono } from 'hono';
import { reportDays, UsageReporter } from '../../billing/usage-report.js';
import { utcDay } from '../../lib/time.js';
import type { Services } from '../../services.js';
import { flashNotice } from '../../web/console/frame.js';
import { usagePage } from '../../web/console/usage-page.js';
import type { AppEnv } from '../context.js';
import { consoleOrigin, requireCaller, viewerOf } from '../console-session.js';
import { page } from './console-render.js';

/** The most frequent gaps; the whole list is `addressd gaps`. */
const GAPS_SHOWN = 50;

/** The first day of the next UTC month: when the monthly grant comes back. */
function nextMonthStart(now: number): string {
  const d = new Date(now);
  return utcDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/**
 * `/dashboard/usage`: GET /v1/usage's report from the same code. No quota gate here: an
 * exhausted account must still see why its API calls answer 429.
 */
export function consoleUsageRoutes(web: Hono<AppEnv>, services: Services): void {
  const reporter = new UsageReporter(services.database.db, services.ledger, services.clock, (a, m, s) => services.feedback.counts(a, m, s));
  web.get('/usage', async (c) => {
    const caller = await requireCaller(c, services);
    const source = (c.req.query('source') ?? '').slice(0, 64) || null;
    const days = reportDays(services.clock.now());
    const [report, flash, acceptance, gaps] = await Promise.all([
      reporter.report({ accountId: caller.account.id, environment: 'live', source }),
      services.sessions.takeFlash(caller.sessionId),
      services.feedback.acceptance(caller.account.id, days[0]!, days.at(-1)!, source),
      // Addresses customers typed: the owner's to see (issue 29), not every member's.
      caller.role === 'owner' ? services.feedback.listGaps({ accountId: caller.account.id, limit: GAPS_SHOWN }) : null,
    ]);
    // Queries may carry recipient lines (`c/o Hans Geheim`): like the gaps, the owner's to read, never a member's (issue 36).
    const shown = caller.role === 'owner' ? report : { ...report, recent: report.recent.map((e) => ({ ...e, query: null })) };
    return page(c, (assets) =>
      usagePage(assets, {
        viewer: viewerOf(caller),
        report: shown,
        resetsOn: nextMonthStart(services.clock.now()),
        baseUrl: consoleOrigin(c, services),
        notice: flashNotice(flash),
        feedback: { days, acceptance, gaps, retentionDays: services.config.FEEDBACK_RETENTION_DAYS },
      }),
    );
  });
}
