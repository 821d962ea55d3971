import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock.js';
import type { Sealer } from '../lib/seal.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { AccountStore } from './accounts.js';
import type { InviteStore } from './invites.js';
import { hashPassword } from './passwords.js';
import { EmailTakenError, normalizeEmail, PeopleStore, type Person } from './people.js';
import { SecretKeyStore } from './secret-keys.js';

export interface SignUpResult {
  person: Person;
  accountId: string;
  /** Keys made for a new account, to be shown once (none when joining by invite). */
  newKeyIds: string[];
}

export class InviteUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InviteUnusableError';
  }
}

/**
 * Sign-up (SPEC "Authentication" 1): a new free-plan account with its first live and test keys,
 * or, with an invite, a login joining the inviting account. All rows land in one transaction.
 */
export class SignUp {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    private readonly invites: InviteStore,
    private readonly people: PeopleStore,
  ) {}

  async newAccount(input: { email: string; password: string; projectName?: string }): Promise<SignUpResult> {
    if (await this.people.findByEmail(input.email)) throw new EmailTakenError();
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction().execute(async (trx) => {
      const person = await new PeopleStore(trx, this.clock).insert(input.email, passwordHash);
      const account = await new AccountStore(trx, this.clock).create({ plan: 'free', ...(input.projectName ? { name: input.projectName } : {}) });
      await new PeopleStore(trx, this.clock).addMembership(person.id, account.id, 'owner');
      const keys = new SecretKeyStore(trx, this.sealer, this.clock);
      const live = await keys.create(account.id, 'live', 'Default live key');
      const test = await keys.create(account.id, 'test', 'Default test key');
      return { person, accountId: account.id, newKeyIds: [live.id, test.id] };
    });
  }

  /**
   * Joins the invite's account: a new login for a new email, or, for an email that already has
   * one, the existing login after its password is given.
   */
  async byInvite(input: { code: string; email: string; password: string }): Promise<SignUpResult> {
    const invite = await this.invites.find(input.code);
    if (!invite) throw new InviteUnusableError('This invitation is unknown, used or expired: ask for a new one');
    if (invite.email !== normalizeEmail(input.email)) throw new InviteUnusableError('This invitation is for another email address');
    const existing = await this.people.findByEmail(input.email);
    let person: Person;
    if (existing) {
      const same = await this.people.authenticate(input.email, input.password);
      if (!same) throw new EmailTakenError();
      person = same;
    } else {
      person = await this.people.create(input.email, input.password);
    }
    if (!(await this.invites.consume(invite.id))) throw new InviteUnusableError('This invitation was just used');
    await this.people.addMembership(person.id, invite.accountId, 'member');
    return { person, accountId: invite.accountId, newKeyIds: [] };
  }
}
