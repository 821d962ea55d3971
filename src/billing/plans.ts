import type { PlanId } from '../contract/enums.js';

/** Monthly credit grants per plan (DESIGN §5). */
export const PLAN_QUOTAS: Record<PlanId, number> = {
  free: 500,
  starter: 10_000,
  growth: 100_000,
  scale: 1_000_000,
};

export const FREE_MONTHLY_CREDITS = PLAN_QUOTAS.free;
