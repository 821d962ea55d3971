import type { Context } from 'hono';
import { normalizeEmail } from '../accounts/people.js';
import type { Services } from '../services.js';
import type { LimitWindow } from '../store/limits/rate-limiter.js';
import { visitorIp } from './client-address.js';
import { ConsoleMessages } from './console-session.js';
import { enforceLimit } from './rate-limit.js';

/**
 * Password guessing (log-in and key re-reveal) is slowed with the same limiter as every other
 * limit (in-process or Redis, shared by all instances). Every attempt counts, right or wrong: the
 * limiter is asked before the password is checked, so a guess past a limit is never tried.
 *
 * Three counts, asked in this order (a refused attempt is not counted by the ones after it):
 * - per visitor address: one address guessing many logins;
 * - per login and address together: 10 in 15 minutes. An attacker's guesses use up the count of
 *   their own address only, so the owner, from theirs, still logs in (a per-login count alone let
 *   anyone lock a known email out);
 * - per login, a looser ceiling: guesses spread over many addresses. Only what passed the second
 *   count reaches it, 10 per address, so locking the owner out takes 10 addresses at once.
 */
export const PASSWORD_LIMITS = {
  perIp: [{ name: 'fifteen_minute', max: 50, periodSeconds: 900 }],
  perEmailAndIp: [{ name: 'fifteen_minute', max: 10, periodSeconds: 900 }],
  perEmail: [{ name: 'hour', max: 100, periodSeconds: 3600 }],
} as const satisfies Record<string, readonly LimitWindow[]>;
const SIGNUP_PER_IP: readonly LimitWindow[] = [{ name: 'hour', max: 10, periodSeconds: 3600 }];

/** One password attempt on `email` from `ip`; throws 429 with Retry-After past a limit. */
export async function countPasswordAttempt(services: Services, email: string, ip: string): Promise<void> {
  const login = normalizeEmail(email);
  await enforceLimit(services, 'console:login:ip', ip, PASSWORD_LIMITS.perIp, ConsoleMessages.loginRate);
  await enforceLimit(services, 'console:login:email-ip', `${login} ${ip}`, PASSWORD_LIMITS.perEmailAndIp, ConsoleMessages.loginRate);
  await enforceLimit(services, 'console:login:email', login, PASSWORD_LIMITS.perEmail, ConsoleMessages.loginRate);
}

export function throttlePasswordAttempt(c: Context, services: Services, email: string): Promise<void> {
  return countPasswordAttempt(services, email, visitorIp(c, services.config.TRUST_PROXY));
}

export async function throttleSignup(c: Context, services: Services): Promise<void> {
  await enforceLimit(services, 'console:signup:ip', visitorIp(c, services.config.TRUST_PROXY), SIGNUP_PER_IP, ConsoleMessages.signupRate);
}
