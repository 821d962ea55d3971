import type { DemoWindow } from '../contract/enums.js';
import type { LimitWindow } from '../store/limits/rate-limiter.js';

/** A limiter window whose name is one of SPEC's demo window ids. */
export interface DemoLimitWindow extends LimitWindow {
  name: DemoWindow;
}

/** DESIGN §8: per client IP, rolling windows, counted only for uncached, non-sample queries. */
export const DEMO_WINDOWS: readonly DemoLimitWindow[] = [
  { name: 'five_minute', max: 10, periodSeconds: 300 },
  { name: 'daily', max: 20, periodSeconds: 86_400 },
  { name: 'weekly', max: 50, periodSeconds: 604_800 },
  { name: 'monthly', max: 200, periodSeconds: 2_592_000 },
];

/** Limiter key of one visitor; the prefix keeps demo logs apart from widget and test-key logs. */
export const demoLimitKey = (ip: string): string => `demo:${ip}`;
