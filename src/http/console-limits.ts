import type { Context } from 'hono';
import { normalizeEmail } from '../accounts/people.js';
import type { Services } from '../services.js';
import type { LimitWindow } from '../store/limits/rate-limiter.js';
import { visitorIp } from './client-address.js';
import { ConsoleMessages } from './console-session.js';
import { enforceLimit } from './rate-limit.js';

/**
 * Password guessing is slowed per login and per visitor, with the same limiter as every other
 * limit (in-process or Redis, shared by all instances). Every attempt counts, right or wrong:
 * the limiter is asked before the password is checked, so a guess past the limit is never tried.
 */
const PER_EMAIL: readonly LimitWindow[] = [{ name: 'fifteen_minute', max: 10, periodSeconds: 900 }];
const PER_IP: readonly LimitWindow[] = [{ name: 'fifteen_minute', max: 50, periodSeconds: 900 }];
const SIGNUP_PER_IP: readonly LimitWindow[] = [{ name: 'hour', max: 10, periodSeconds: 3600 }];

export async function throttlePasswordAttempt(c: Context, services: Services, email: string): Promise<void> {
  await enforceLimit(services, 'console:login:ip', visitorIp(c, services.config.TRUST_PROXY), PER_IP, ConsoleMessages.loginRate);
  await enforceLimit(services, 'console:login:email', normalizeEmail(email), PER_EMAIL, ConsoleMessages.loginRate);
}

export async function throttleSignup(c: Context, services: Services): Promise<void> {
  await enforceLimit(services, 'console:signup:ip', visitorIp(c, services.config.TRUST_PROXY), SIGNUP_PER_IP, ConsoleMessages.signupRate);
}
