import type { Environment } from '../contract/enums.js';
import type { Role } from './people.js';

/**
 * What each role may do in an account's console, decided here once: the routes enforce it (403)
 * and the pages show it (disabled controls with the reason).
 * - owner (signed up with the account): everything.
 * - member (joined by invite): sees usage, every key (masked) and every token; creates test keys
 *   and reveals, renames and revokes test keys, which reach development only. Live keys (they
 *   spend the account's credits in production) and publishable tokens (they decide which sites
 *   may call on the account) are the owner's alone. Invites are the operator's (CLI), never a
 *   console action.
 */
/** Create, reveal, rename or revoke a key of this environment. */
export function mayManageKeys(role: Role, env: Environment): boolean {
  return role === 'owner' || env === 'test';
}

export function mayManageTokens(role: Role): boolean {
  return role === 'owner';
}

export const RoleMessages = {
  liveKeys: 'Only an owner of this account can create, reveal, rename or revoke live keys: members work with test keys.',
  tokens: 'Only an owner of this account can create, edit or revoke publishable tokens.',
} as const;
