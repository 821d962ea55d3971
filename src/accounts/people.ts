import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { utcTimestamp } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { passwordHasher, type PasswordHasher } from './passwords.js';
import type { Flash } from './sessions.js';

export interface Person {
  id: string;
  email: string;
}

export type Role = 'owner' | 'member';

export interface Membership {
  accountId: string;
  accountName: string | null;
  role: Role;
}

export class EmailTakenError extends Error {
  constructor() {
    super('A console login with this email already exists');
    this.name = 'EmailTakenError';
  }
}

/** Emails compare case-insensitively: stored trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** People who log in to the console, and which accounts each may open. */
export class PeopleStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly clock: Clock,
    readonly hasher: PasswordHasher = passwordHasher,
  ) {}

  async create(email: string, password: string): Promise<Person> {
    return this.insert(email, await this.hasher.hash(password));
  }

  /** With the hash made beforehand, so a transaction never waits on scrypt. */
  async insert(email: string, passwordHash: string, loginNotice?: Flash): Promise<Person> {
    const normalized = normalizeEmail(email);
    if (await this.findByEmail(normalized)) throw new EmailTakenError();
    const person = { id: newId('per'), email: normalized };
    await this.db
      .insertInto('people')
      .values({
        ...person,
        password_hash: passwordHash,
        created_at: utcTimestamp(this.clock.now()),
        login_notice: loginNotice ? JSON.stringify(loginNotice) : null,
      })
      .execute();
    return person;
  }

  async findByEmail(email: string): Promise<Person | undefined> {
    const row = await this.db.selectFrom('people').select(['id', 'email']).where('email', '=', normalizeEmail(email)).executeTakeFirst();
    return row;
  }

  async get(id: string): Promise<Person | undefined> {
    return this.db.selectFrom('people').select(['id', 'email']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * The person when the password is theirs; an unknown email costs the same derivation. A hash
   * made at an older cost is made again at today's now that the password is known.
   */
  async authenticate(email: string, password: string): Promise<Person | null> {
    const row = await this.db.selectFrom('people').select(['id', 'email', 'password_hash']).where('email', '=', normalizeEmail(email)).executeTakeFirst();
    return (await this.verified(row, password)) ? { id: row!.id, email: row!.email } : null;
  }

  async checkPassword(personId: string, password: string): Promise<boolean> {
    const row = await this.db.selectFrom('people').select(['id', 'password_hash']).where('id', '=', personId).executeTakeFirst();
    return this.verified(row, password);
  }

  private async verified(row: { id: string; password_hash: string } | undefined, password: string): Promise<boolean> {
    const ok = await this.hasher.verify(password, row?.password_hash ?? (await this.hasher.decoy()));
    if (!ok || !row) return false;
    if (this.hasher.isOutdated(row.password_hash)) {
      const fresh = await this.hasher.hash(password);
      // Only over the hash just verified: a password changed meanwhile is never overwritten.
      await this.db.updateTable('people').set({ password_hash: fresh }).where('id', '=', row.id).where('password_hash', '=', row.password_hash).execute();
    }
    return true;
  }

  /**
   * Leaves a notice for the person's next log-in. A pending first-keys notice is never replaced:
   * the keys matter more, and they are shown once.
   */
  async leaveNotice(personId: string, notice: Flash): Promise<void> {
    const row = await this.db.selectFrom('people').select('login_notice').where('id', '=', personId).executeTakeFirst();
    const pending = row?.login_notice ? (JSON.parse(row.login_notice) as Flash) : null;
    if (pending?.kind === 'keys') return;
    await this.db.updateTable('people').set({ login_notice: JSON.stringify(notice) }).where('id', '=', personId).execute();
  }

  /** Reads and clears the person's pending notice in one step. */
  async takeNotice(personId: string): Promise<Flash | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('people').select('login_notice').where('id', '=', personId).executeTakeFirst();
      if (!row?.login_notice) return null;
      await trx.updateTable('people').set({ login_notice: null }).where('id', '=', personId).execute();
      return JSON.parse(row.login_notice) as Flash;
    });
  }

  async addMembership(personId: string, accountId: string, role: Role): Promise<void> {
    if (await this.isMember(personId, accountId)) return;
    await this.db
      .insertInto('memberships')
      .values({ person_id: personId, account_id: accountId, role, created_at: utcTimestamp(this.clock.now()) })
      .execute();
  }

  /** The accounts a person may open, oldest membership first. */
  async memberships(personId: string): Promise<Membership[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .select(['memberships.account_id', 'accounts.name', 'memberships.role'])
      .where('memberships.person_id', '=', personId)
      .orderBy('memberships.created_at')
      .orderBy('memberships.account_id')
      .execute();
    return rows.map((r) => ({ accountId: r.account_id, accountName: r.name, role: r.role as Role }));
  }

  async isMember(personId: string, accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('memberships')
      .select('role')
      .where('person_id', '=', personId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
