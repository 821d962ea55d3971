import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { utcTimestamp } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';

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
  ) {}

  async create(email: string, password: string): Promise<Person> {
    return this.insert(email, await hashPassword(password));
  }

  /** With the hash made beforehand, so a transaction never waits on scrypt. */
  async insert(email: string, passwordHash: string): Promise<Person> {
    const normalized = normalizeEmail(email);
    if (await this.findByEmail(normalized)) throw new EmailTakenError();
    const person = { id: newId('per'), email: normalized };
    await this.db
      .insertInto('people')
      .values({ ...person, password_hash: passwordHash, created_at: utcTimestamp(this.clock.now()) })
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

  /** The person when the password is theirs; an unknown email costs the same hashing time. */
  async authenticate(email: string, password: string): Promise<Person | null> {
    const row = await this.db.selectFrom('people').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
    const ok = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
    return row && ok ? { id: row.id, email: row.email } : null;
  }

  async checkPassword(personId: string, password: string): Promise<boolean> {
    const row = await this.db.selectFrom('people').select('password_hash').where('id', '=', personId).executeTakeFirst();
    return verifyPassword(password, row?.password_hash ?? (await decoyHash())).then((ok) => ok && row !== undefined);
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
