import type { TextMatch } from '../contract/autocomplete.js';
import { languageTable } from './abbreviations.js';
import { countryLanguages } from './languages.js';
import { Kept } from '../lib/kept.js';
import { foldDigraphs, foldLetters, normalizeText } from './text.js';

/**
 * `matches` of a suggestion (issue 35): the parts of its label the typed text matched, in UTF-16
 * code units, as a person sees them matched. Each typed word matches one label word, after the
 * folding search uses (case, diacritics, `ß` = `ss`, `ue` = `ü` where the language writes it so):
 * - whole words first (`10` marks `10`, not the start of `1012`), then prefixes (the word being typed);
 * - an abbreviation matches its full word and back (`Rd` marks `Road`, `Hauptstraße` marks `Hauptstr.`);
 * - a typed word may run on over the next label words (`1012lg` marks `1012` and `LG`), and the next
 *   typed word may continue a word the last one began (`Friedrich str` marks `Friedrichstr` of `Friedrichstraße`).
 */
export function labelMatches(query: string, label: string, country?: string): TextMatch[] {
  return labelMatcher(query, country)(label);
}

/**
 * labelMatches for many labels of one typed text (a suggestion list): the typed words and their
 * forms are read once, not once per label.
 */
export function labelMatcher(query: string, country?: string): (label: string) => TextMatch[] {
  const kept = keptFor(countryLanguages(country));
  const typed = normalizeText(query).split(' ').filter(Boolean).map((w) => typedForms(w, kept));
  return (label) => matchLabel(typed, labelWords(label, kept));
}

function matchLabel(typed: readonly string[][], words: readonly LabelWord[]): TextMatch[] {
  const out: TextMatch[] = [];
  const used = new Set<number>();
  const mark = (w: LabelWord, from: number, to: number) => {
    const start = w.starts[from] as number;
    out.push({ offset: w.at + start, length: (w.ends[to - 1] as number) - start });
  };
  // Whole words first, so a typed number marks itself rather than the start of a longer one.
  const pending: number[] = [];
  typed.forEach((forms, t) => {
    const i = words.findIndex((w, j) => !used.has(j) && forms.some((f) => f === w.folded || w.full.includes(f)));
    if (i < 0) return void pending.push(t);
    used.add(i);
    const w = words[i] as LabelWord;
    // What was typed, where the label starts with it (`Hauptstr` of `Hauptstraße`); else the whole word (`Rd` → `Road`).
    const literal = forms.find((f) => w.folded.startsWith(f));
    mark(w, 0, literal?.length ?? w.folded.length);
  });
  let partial: { word: number; at: number; after: number } | undefined;
  for (const t of pending) {
    const forms = typed[t] as string[];
    // Continues the word the previous typed word began (`friedrich` + `str` in `friedrichstrasse`).
    const cont = partial?.after === t - 1 ? partial : undefined;
    const rest = cont && (words[cont.word] as LabelWord).folded.slice(cont.at);
    const f = rest !== undefined ? forms.find((x) => rest.startsWith(x)) : undefined;
    if (cont && f) {
      mark(words[cont.word] as LabelWord, cont.at, cont.at + f.length);
      partial = cont.at + f.length < (words[cont.word] as LabelWord).folded.length ? { word: cont.word, at: cont.at + f.length, after: t } : undefined;
      continue;
    }
    partial = undefined;
    for (let i = 0; i < words.length; i++) {
      if (used.has(i)) continue;
      const spent = runOn(words, i, forms, used);
      if (spent) {
        for (const [j, from, to] of spent) {
          used.add(j);
          mark(words[j] as LabelWord, from, to);
        }
        const [j, , to] = spent[spent.length - 1] as Spent;
        if (to < (words[j] as LabelWord).folded.length) partial = { word: j, at: to, after: t };
        break;
      }
      const w = words[i] as LabelWord;
      // The label abbreviates what was typed in full or in part (`hauptstra` for `Hauptstr.`).
      if (forms.some((x) => x.length > w.folded.length && w.full.some((e) => e.startsWith(x)))) {
        used.add(i);
        mark(w, 0, w.folded.length);
        break;
      }
    }
  }
  // A typed word continuing inside a folded letter (`gros` + `se` of `Große`) shares that letter: one range.
  const merged: TextMatch[] = [];
  for (const m of out.sort((a, b) => a.offset - b.offset)) {
    const last = merged.at(-1);
    if (last && m.offset < last.offset + last.length) last.length = Math.max(last.length, m.offset + m.length - last.offset);
    else merged.push({ ...m });
  }
  return merged;
}

type Spent = [word: number, from: number, to: number];

/** The label words a typed word covers from word `i` by prefix, running on into the next words; undefined when it does not start there. */
function runOn(words: readonly LabelWord[], i: number, forms: readonly string[], used: ReadonlySet<number>): Spent[] | undefined {
  for (const form of forms) {
    const spent: Spent[] = [];
    let rest = form;
    for (let j = i; j < words.length && rest && !used.has(j); j++) {
      const w = words[j] as LabelWord;
      if (w.folded.startsWith(rest)) {
        spent.push([j, 0, rest.length]);
        rest = '';
      } else if (rest.startsWith(w.folded)) {
        spent.push([j, 0, w.folded.length]);
        rest = rest.slice(w.folded.length);
      } else break;
    }
    if (!rest && spent.length) return spent;
  }
  return undefined;
}

interface LabelWord {
  folded: string;
  /** Full forms of an abbreviated word (`hauptstr` → `hauptstrasse`, `rd` → `road`), itself included. */
  full: readonly string[];
  /** For each folded character, the UTF-16 span of the label character it came from, from the word's start `at`. */
  starts: readonly number[];
  ends: readonly number[];
  at: number;
}

/**
 * What is kept per set of languages (a country's): each word as written read once, its fold and
 * spans from the word's own start (labels repeat their street and town words), and each word's
 * expansions. Keyed by the word alone within its set: a key made per word (`de|Hauptstraße`) was
 * a new string to build and hash for every word of every label.
 */
interface LanguageKept {
  langs: readonly string[];
  shapes: Kept<LabelWord>;
  expanded: Kept<readonly string[]>;
}

const byLanguages = new Map<string, LanguageKept>();

function keptFor(langs: readonly string[]): LanguageKept {
  const key = langs.join(',');
  let kept = byLanguages.get(key);
  if (!kept) byLanguages.set(key, (kept = { langs, shapes: new Kept(20_000), expanded: new Kept(20_000) }));
  return kept;
}

function labelWords(label: string, kept: LanguageKept): LabelWord[] {
  const out: LabelWord[] = [];
  for (const m of label.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const shape = kept.shapes.get(m[0], () => wordShape(m[0], kept));
    if (!shape.folded) continue;
    out.push(m.index === 0 ? shape : { ...shape, at: m.index });
  }
  return out;
}

function wordShape(text: string, kept: LanguageKept): LabelWord {
  let folded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const ch of text) {
    // ASCII folds to its lower case: only other letters go through the fold's regular expressions.
    const f = ch.charCodeAt(0) < 0x80 ? ch.toLowerCase() : foldLetters(ch.toLowerCase());
    // A combining mark folds to nothing: it belongs to the letter before it.
    if (!f && ends.length) ends.fill(at + ch.length, ends.length - 1);
    for (const c of f) {
      folded += c;
      starts.push(at);
      ends.push(at + ch.length);
    }
    at += ch.length;
  }
  return { folded, full: folded ? expansions(folded, kept) : [], starts, ends, at: 0 };
}

/** A typed word as it may appear in a label: itself, its full forms, and spelled with digraphs folded. */
function typedForms(word: string, kept: LanguageKept): string[] {
  return [...new Set([word, foldDigraphs(word, kept.langs), ...expansions(word, kept)])];
}

/**
 * Expansions per language set and word, kept: a suggestion list's labels repeat their street and
 * town words, and the expansion walks every suffix of the languages' tables.
 */
function expansions(word: string, kept: LanguageKept): readonly string[] {
  return kept.expanded.get(word, () => expand(word, kept.langs));
}

function expand(word: string, langs: readonly string[]): string[] {
  const out = new Set<string>([word]);
  for (const lang of langs) {
    const table = languageTable(lang);
    for (const e of table.words.get(word) ?? []) out.add(e.full);
    for (const [abbr, full] of table.suffixes) {
      if (word.length > abbr.length + 1 && word.endsWith(abbr)) out.add(word.slice(0, -abbr.length) + full);
    }
  }
  return [...out];
}
