import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock.js';
import type { Sealer } from '../lib/seal.js';
import { utcDay } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { AccountStore } from './accounts.js';
import type { InviteStore } from './invites.js';
import { isCommonPassword, WeakPasswordError } from './passwords.js';
import { EmailTakenError, normalizeEmail, PeopleStore, type Person } from './people.js';
import { SecretKeyStore } from './secret-keys.js';
import type { Flash } from './sessions.js';

export interface SignUpResult {
  person: Person;
  accountId: string;
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

  /**
   * A new account for an email, answered the same whether the email already has a login or not
   * (issue 20: the answer and its time told who has an account). Both paths refuse the same
   * common passwords, hash the password once and write once; nothing is returned. What there is
   * to say reaches the email's person at their next log-in: a new account's first keys, or, for
   * an email that already had a login, that someone tried to sign up with it. There is no email
   * verification: see docs/security.md for what an operator can do.
   */
  async newAccount(input: { email: string; password: string; projectName?: string }): Promise<void> {
    if (await isCommonPassword(input.password)) throw new WeakPasswordError();
    const passwordHash = await this.people.hasher.hash(input.password);
    const existing = await this.people.findByEmail(input.email);
    if (existing) return this.tellOwner(existing);
    try {
      await this.db.transaction().execute(async (trx) => {
        const account = await new AccountStore(trx, this.clock).create({ plan: 'free', ...(input.projectName ? { name: input.projectName } : {}) });
        const keys = new SecretKeyStore(trx, this.sealer, this.clock);
        const live = await keys.create(account.id, 'live', 'Default live key');
        const test = await keys.create(account.id, 'test', 'Default test key');
        const people = new PeopleStore(trx, this.clock, this.people.hasher);
        const notice: Flash = { kind: 'keys', keyIds: [live.id, test.id], message: 'Your account is ready: here are its first keys' };
        const person = await people.insert(input.email, passwordHash, notice);
        await people.addMembership(person.id, account.id, 'owner');
      });
    } catch (error) {
      // The same email signing up twice at once: the second is a known email like any other.
      const raced = await this.people.findByEmail(input.email);
      if (!raced) throw error;
      await this.tellOwner(raced);
    }
  }

  private tellOwner(person: Person): Promise<void> {
    const day = utcDay(this.clock.now());
    const message = `Someone (you?) tried to sign up with this email on ${day}. Nothing was changed: you already had this login. If it was not you, no action is needed; your password was not used.`;
    return this.people.leaveNotice(person.id, { kind: 'notice', message });
  }

  /**
   * Joins the invite's account: a new login for a new email, or, for an email that already has
   * one, the existing login after its password is given. The invite names its email, so only
   * whoever holds the code (sent to that email) learns whether it already had a login.
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
      if (await isCommonPassword(input.password)) throw new WeakPasswordError();
      person = await this.people.create(input.email, input.password);
    }
    if (!(await this.invites.consume(invite.id))) throw new InviteUnusableError('This invitation was just used');
    await this.people.addMembership(person.id, invite.accountId, 'member');
    return { person, accountId: invite.accountId };
  }
}
