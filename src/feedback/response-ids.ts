import type { AddressComponents } from '../contract/address.js';
import { Verdict } from '../contract/enums.js';
import { RESPONSE_ID_MAX } from '../contract/feedback.js';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/ids.js';
import type { Signer } from '../lib/signer.js';
import { type AnswerForGap, GAP_FIELDS, type GapAddress, type GapFields, gapOf, type GapKind } from './gap-rule.js';

export const RESPONSE_ID_PREFIX = 'rsp_';

/** What an answer's id says about it: enough to count feedback and to find an index gap, nothing more. */
export interface AnswerFacts {
  answeredAt: number;
  verdict: Verdict;
  /** The usage event's source tag, so feedback counts filter by source like the usage summary. */
  source: string | null;
  /** The key of the first answer of its chain (`previousResponseId`), when it re-validated one. */
  chain?: string;
  gap?: GapAddress;
}

/**
 * An id that opened: `key` names what takes one conclusion, for idempotency: the answer (the same
 * id always gives the same key), or the first answer of its chain, so a checkout counts once.
 */
export interface OpenedResponse {
  key: string;
  facts: AnswerFacts;
}

type Row = (string | null)[];
/** [version, answeredAt, verdict, source, chain, kind?, typed?, read?]: short, so ids stay short. */
type Signed = [1, number, Verdict, string | null, string | null, GapKind?, Row?, Row?];

/** Random bytes per id: every answer's id its own (a cached answer's too), and unguessable. */
const NONCE_BYTES = 9;

/**
 * Response ids are derived, not stored (issue 29: an id per answer is no database write on the hot
 * path). Each is a random nonce and the answer's facts, signed (HMAC-SHA256 under a key derived
 * from the master key, lib/signer.ts) together with the account's id: unguessable, unforgeable, and
 * valid only for the account it was issued to, so another account's id is indistinguishable from an
 * unknown one. Signed rather than sealed: the facts are the holder's own answer (its time, verdict,
 * source tag, and what the customer typed), and an AES-GCM seal cost 1.5 to 3 times the HMAC on
 * every answer (a cipher object per call, measured). No I/O: the database sees an id only when feedback
 * arrives. The address goes in only when the answer could reveal an index gap (gap-rule.ts), and
 * then only street, number, postcode, town, country.
 */
export class ResponseIds {
  constructor(
    private readonly signer: Signer,
    private readonly clock: Clock,
    /** FEEDBACK_RETENTION_DAYS in ms: an older id is expired (404), as if never issued. */
    private readonly retentionMs: number,
  ) {}

  /**
   * The id of one answer given now to `accountId`; `previous`, the id of the answer it re-validates
   * (verified here, a few microseconds, only when sent): an unknown or expired one starts a new chain.
   */
  issue(accountId: string, source: string | null, answer: AnswerForGap, input: AddressComponents, unverified: boolean, previous?: string): string {
    const gap = gapOf(answer, input, unverified);
    // Longer than any id we issue: not ours, so a new chain without spending a MAC on it.
    const chain = previous === undefined || previous.length > RESPONSE_ID_MAX ? null : (this.open(accountId, previous)?.key ?? null);
    const signed: Signed = [1, this.clock.now(), answer.verdict, source, chain];
    const nonce = this.signer.nonce(NONCE_BYTES);
    if (gap) {
      const withGap = this.#sign(accountId, nonce, [1, signed[1], answer.verdict, source, chain, gap.kind, row(gap.typed), row(gap.read)]);
      // A long non-Latin address can outgrow the bound feedback accepts: such an id leaves the
      // address out (no gap can come of it), since an id feedback refuses is worth nothing.
      if (withGap.length <= RESPONSE_ID_MAX) return withGap;
    }
    return this.#sign(accountId, nonce, signed);
  }

  #sign(accountId: string, nonce: Buffer, signed: Signed): string {
    const data = Buffer.concat([nonce, Buffer.from(JSON.stringify(signed))]);
    return RESPONSE_ID_PREFIX + this.signer.sign(data, associated(accountId));
  }

  /** The facts of an id issued to `accountId` and not yet expired; null for anything else. */
  open(accountId: string, id: string): OpenedResponse | null {
    if (!id.startsWith(RESPONSE_ID_PREFIX)) return null;
    const data = this.signer.open(id.slice(RESPONSE_ID_PREFIX.length), associated(accountId));
    if (data === null || data.length <= NONCE_BYTES) return null;
    const facts = parse(data.subarray(NONCE_BYTES).toString('utf8'));
    if (!facts || this.clock.now() - facts.answeredAt > this.retentionMs) return null;
    // Of the signed bytes, not the text: base64url decoding ignores a last character's spare bits,
    // so two spellings of one id are one answer.
    return { key: facts.chain ?? sha256Hex(`${accountId}:${data.toString('base64url')}`), facts };
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

/** Only we sign, so a payload that verified is ours; still checked, as anything read back is. */
function parse(plain: string): AnswerFacts | null {
  let value: unknown;
  try {
    value = JSON.parse(plain);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value[0] !== 1 || typeof value[1] !== 'number') return null;
  const [, answeredAt, verdict, source, chain, kind, typed, read] = value as Signed;
  if (!Verdict.safeParse(verdict).success) return null;
  const facts: AnswerFacts = { answeredAt, verdict, source: typeof source === 'string' ? source : null };
  if (typeof chain === 'string') facts.chain = chain;
  if (kind === 'street' || kind === 'house') facts.gap = { kind, typed: fields(typed), read: fields(read) };
  return facts;
}
