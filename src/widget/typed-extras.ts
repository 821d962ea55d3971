import type { AddressComponents } from '../contract/address.js';

/** What a selection keeps of the user's own typing. */
export interface KeptTyping {
  /** House number with the user's addition (`12-3`, `7 bis`); the typed number when the suggestion has none. */
  houseNumber?: string;
  /** Typed text the suggestion lacks, e.g. `apt 4`, `3rd floor`; '' when none. */
  extra: string;
  /** The suggestion label with the number and extra worked in: what the search input shows. */
  value: string;
  /** Street line (street + number, without the extra) for a street-line field. */
  line1: string;
  /** The street line with the unit, as the label writes it (`Landstrasse 340/3`), for a form without a unit field. */
  line1WithUnit: string;
}

// Words that open an apartment/unit designation in the languages the providers cover.
const UNIT_WORDS = new Set('apt app appt apartment unit flat ste suite bus box bte fl floor etage et rm room whg top stg stock no'.split(' '));
// Short forms after a house number: `A`, `-3`, `/2`, `bis`, `hs`, `III`.
const ADDITION = /^([a-z]{1,3}|[-/][\da-z]{1,4})$/;

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const compact = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Tok {
  raw: string;
  norm: string;
}

/**
 * Works out what the user typed beyond the chosen suggestion, so selecting never wipes an apartment or a
 * house-number addition. Heuristic by design: words the label already covers (also as a prefix, as typed
 * half-way) are dropped; after the house number, an immediate short form is its addition, and words with a
 * digit or led by a unit word are the extra; anything else (typos of the street or city) yields to the label.
 */
export function keepTyping(typed: string, label: string, address: AddressComponents): KeptTyping {
  const toks: Tok[] = (typed.match(/[^\s,]+/g) ?? []).map((raw) => ({ raw, norm: fold(raw).replace(/^[.]+|[.]+$/g, '') }));
  const words = fold(label).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const flat = compact(fold(label));
  const last = toks.length - 1;
  const covered = (t: Tok, i: number) =>
    words.includes(t.norm) ||
    ((t.norm.length > 1 || i === last) && words.some((w) => w.startsWith(t.norm))) ||
    (t.norm.length > 3 && flat.includes(compact(t.norm)));

  const hn = address.houseNumber ? fold(address.houseNumber) : '';
  const at = toks.findIndex((t, i) =>
    hn ? t.norm === hn || (t.norm.startsWith(hn) && !/\d/.test(t.norm.charAt(hn.length))) : /^\d/.test(t.norm) && !covered(t, i),
  );
  if (at < 0) return kept(label, address, address.houseNumber, '');

  const anchor = toks[at] as Tok;
  // The unit the service read is no part of the number: `340/3` is house 340, door 3 (AT, LI).
  const unitKey = address.unit ? compact(fold(address.unit)) : '';
  const rest = anchor.raw.slice(hn.length);
  const ownUnit = hn && (compact(fold(rest)) === '' || (unitKey && compact(fold(rest)) === unitKey));
  let houseNumber = hn ? (address.houseNumber as string) + (ownUnit ? '' : rest) : anchor.raw;
  let next = at + 1;
  const after = toks[next];
  // A lone letter right after the number is its addition (`1 A`), even if a label word starts with it.
  const claimed = after && (after.norm.length === 1 ? words.includes(after.norm) : covered(after, next));
  if (after && !claimed && houseNumber.length === anchor.raw.length && ADDITION.test(after.norm) && !UNIT_WORDS.has(after.norm)) {
    houseNumber += ` ${after.raw}`;
    next++;
  }
  const extras: string[] = [];
  for (let i = next, unit = false; i < toks.length; i++) {
    const t = toks[i] as Tok;
    const isUnit = UNIT_WORDS.has(t.norm) || t.norm.startsWith('#');
    // A 4+ digit number is a postcode the suggestion replaces, not an apartment.
    const postcodeLike = /^\d{4,}$/.test(t.norm) && !unit;
    // The unit's own identifier is kept even where a label word starts like it (`Top 3` at house `340`);
    // a unit the service read (`address.unit`) is in the label already and is not repeated.
    const keep = (unit || !covered(t, i)) && !postcodeLike && (isUnit || unit || /\d/.test(t.norm));
    // `340 / 3`: the door written apart is the unit the service read, not a second one.
    const readUnit = address.unit && (isUnit || unit || compact(t.norm) === unitKey);
    if (keep && !readUnit) extras.push(t.raw);
    unit = isUnit;
  }
  // A designator still waiting for its number (`Whg`, `apt`; not the `floor` of `2nd floor`) names no unit yet.
  if (UNIT_WORDS.has(toks[last]?.norm ?? '') && extras.at(-1) === toks[last]?.raw && !/\d/.test(extras.at(-2) ?? '')) extras.pop();
  return kept(label, address, houseNumber, extras.join(' '));
}

function kept(label: string, address: AddressComponents, houseNumber: string | undefined, extra: string): KeptTyping {
  const line1 = streetLine(label, address, houseNumber);
  const labelled = weave(label, address, houseNumber ?? '', '').split(',')[0]?.trim() ?? '';
  // The label's own street line where it carries the unit after this number; else the unit appended.
  const unit = address.unit || extra;
  const line1WithUnit = unit && labelled.startsWith(line1) && labelled.endsWith(unit) ? labelled : [line1, unit].filter(Boolean).join(' ');
  return { houseNumber, extra, value: weave(label, address, houseNumber ?? '', extra), line1, line1WithUnit };
}

/** Puts the full house number and the extra into the label's street segment. */
function weave(label: string, address: AddressComponents, houseNumber: string, extra: string): string {
  const tail = extra ? ` ${extra}` : '';
  const hn = address.houseNumber;
  const hnAt = hn ? new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(hn)}(?![\\p{L}\\p{N}])`, 'iu').exec(label) : null;
  let text = label;
  let end: number;
  if (hnAt) {
    const start = hnAt.index + (hnAt[1] as string).length;
    text = label.slice(0, start) + houseNumber + label.slice(start + (hn as string).length);
    end = start + houseNumber.length;
  } else {
    const street = address.street ? label.toLowerCase().indexOf(address.street.toLowerCase()) : -1;
    end = street >= 0 ? street + (address.street as string).length : label.search(/,|$/);
    const number = !houseNumber || hn === houseNumber ? '' : ` ${houseNumber}`;
    text = label.slice(0, end) + number + label.slice(end);
    end += number.length;
  }
  // The extra goes at the end of the street segment: `Damrak 1 apt 4, 1012 LG Amsterdam`.
  const comma = text.indexOf(',', end);
  const cut = comma < 0 ? text.length : comma;
  return text.slice(0, cut) + tail + text.slice(cut);
}

function streetLine(label: string, address: AddressComponents, houseNumber: string | undefined): string {
  // Where the country writes the unit on the street line (`1932 Eastern Avenue Apt 3B`), it has a field of its own.
  let first = weave(label, address, houseNumber ?? '', '').split(',')[0] as string;
  // Only where it ends the line after a separator: a unit `1` must not take the `1` out of `Damrak 1`
  // or `Damrak 21`; `Landstrasse 340/3` loses the door and its slash.
  if (address.unit) first = first.trimEnd().replace(new RegExp(`[\\s/,-]+${escapeRe(address.unit)}$`, 'iu'), '');
  if (address.street && first.toLowerCase().includes(address.street.toLowerCase())) return first.trim();
  return [address.street, houseNumber].filter(Boolean).join(' ');
}
