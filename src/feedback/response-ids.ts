import type { AddressComponents } from '../contract/address.js';
import { Verdict } from '../contract/enums.js';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/ids.js';
import type { Sealer } from '../lib/seal.js';
import { type AnswerForGap, GAP_FIELDS, type GapAddress, type GapFields, gapOf, type GapKind } from './gap-rule.js';

export const RESPONSE_ID_PREFIX = 'rsp_';

/** What an answer's id says about it: enough to count feedback and to find an index gap, nothing more. */
export interface AnswerFacts {
  answeredAt: number;
  verdict: Verdict;
  /** The usage event's source tag, so feedback counts filter by source like the usage summary. */
  source: string | null;
  gap?: GapAddress;
}

/** An id that opened: `key` names the answer for idempotency (the same id always gives the same key). */
export interface OpenedResponse {
  key: string;
  facts: AnswerFacts;
}

type Row = (string | null)[];
/** [version, answeredAt, verdict, source, kind?, typed?, read?]: short, so ids stay short. */
type Sealed = [1, number, Verdict, string | null, GapKind?, Row?, Row?];

/**
 * Response ids are derived, not stored (issue 29: an id per answer is no database write on the hot
 * path). Each is the answer's facts sealed with the master key (AES-256-GCM, lib/seal.ts) under the
 * account's id as associated data: unguessable (a fresh random IV each, so a cached answer's id is
 * its own), unforgeable, and opening only for the account it was issued to, so another account's id
 * is indistinguishable from an unknown one. Sealing costs a few microseconds and no I/O; the
 * database sees an id only when feedback arrives. The address is sealed in only when the answer
 * could reveal an index gap (gap-rule.ts), and then only street, number, postcode, town, country.
 */
export class ResponseIds {
  constructor(
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    /** FEEDBACK_RETENTION_DAYS in ms: an older id is expired (404), as if never issued. */
    private readonly retentionMs: number,
  ) {}

  /** The id of one answer given now to `accountId`. */
  issue(accountId: string, source: string | null, answer: AnswerForGap, input: AddressComponents, unverified: boolean): string {
    const gap = gapOf(answer, input, unverified);
    const sealed: Sealed = [1, this.clock.now(), answer.verdict, source];
    if (gap) sealed.push(gap.kind, row(gap.typed), row(gap.read));
    return RESPONSE_ID_PREFIX + this.sealer.seal(JSON.stringify(sealed), associated(accountId));
  }

  /** The facts of an id issued to `accountId` and not yet expired; null for anything else. */
  open(accountId: string, id: string): OpenedResponse | null {
    if (!id.startsWith(RESPONSE_ID_PREFIX)) return null;
    const body = id.slice(RESPONSE_ID_PREFIX.length);
    const plain = this.sealer.open(body, associated(accountId));
    if (plain === null) return null;
    const facts = parse(plain);
    if (!facts || this.clock.now() - facts.answeredAt > this.retentionMs) return null;
    // base64url decoding ignores a last character's spare bits: the key is of the bytes, so two
    // spellings of one id are one answer.
    return { key: sha256Hex(Buffer.from(body, 'base64url').toString('base64url')), facts };
  }
}

function associated(accountId: string): string {
  return `response-id:${accountId}`;
}

function row(fields: GapFields): Row {
  return GAP_FIELDS.map((f) => fields[f] ?? null);
}

function fields(values: Row | undefined): GapFields {
  const out: GapFields = {};
  GAP_FIELDS.forEach((f, i) => {
    const v = values?.[i];
    if (typeof v === 'string') out[f] = v;
  });
  return out;
}

/** Only we seal, so a payload that opened is ours; still checked, as anything read back is. */
function parse(plain: string): AnswerFacts | null {
  let value: unknown;
  try {
    value = JSON.parse(plain);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value[0] !== 1 || typeof value[1] !== 'number') return null;
  const [, answeredAt, verdict, source, kind, typed, read] = value as Sealed;
  if (!Verdict.safeParse(verdict).success) return null;
  const facts: AnswerFacts = { answeredAt, verdict, source: typeof source === 'string' ? source : null };
  if (kind === 'street' || kind === 'house') facts.gap = { kind, typed: fields(typed), read: fields(read) };
  return facts;
}
