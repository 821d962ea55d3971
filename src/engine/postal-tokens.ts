import { createRequire } from 'node:module';

/**
 * When a street name, postcode, town or house number may go through OpenCage's templates (`@fragaria/address-formatter`)
 * as a placeholder, to be put back in the lines afterwards (postal-lines.ts keeps the formatter's
 * lines per country instead of per address: the formatter costs 50-150 µs a call). The formatter
 * touches a component's text in four places, and each is checked here against the templates the
 * formatter may pick for the country:
 * - its `replace` rules, regular expressions over every component's value (`^Stadtteil `,
 *   ` City$` in IE): a value one of them matches is formatted as it is;
 * - its clean-up of the rendered text (whitespace and comma runs, first match only; repeated lines
 *   and `, ` parts dropped; `||` splits a `first` section): a value passes only as words of
 *   characters none of those rules match, separated by single spaces, and different from every
 *   other value written (so nothing the formatter would drop as a repeat survives as a placeholder);
 * - its `postformat_replace` rules over the whole text (`\n(\d{3})(\d{2}) ` in SE makes `12345` a
 *   `123 45`): the lines with the values put back must match none of them (`safeText`), else the
 *   address is formatted as it is;
 * - its postcode clean-up (over 20 characters, `1;2`, `12345,12346`): such a postcode is not plain.
 * test/engine/postal-lines.test.ts compares both ways on every corpus country and on the values
 * each rule is there for.
 */

interface Template {
  replace?: [string, string][];
  postformat_replace?: [string, string][];
  use_country?: string;
}

interface Rules {
  /** `replace` patterns as cleanupInput may apply them to any component (`road=…` with and without its prefix). */
  values: RegExp[];
  /** `postformat_replace` patterns, over the whole text. */
  text: RegExp[];
}

/** The formatter's own templates; undefined (nothing passes as a placeholder) if a later version moves them. */
const templates: Record<string, Template> | undefined = (() => {
  try {
    return createRequire(import.meta.url)('@fragaria/address-formatter/src/templates/templates.json') as Record<string, Template>;
  } catch {
    return undefined;
  }
})();

/** Words of characters no clean-up rule touches (no whitespace run, comma, `}`, `|`), one space apart; not a leading `- `. */
const PLAIN_WORDS = /^(?!- )[^\s,}|]+(?: [^\s,}|]+)*$/;
const URL_LIKE = /^https?:\/\//i;

const rulesByCountry = new Map<string, Rules | undefined>();

/**
 * Every template the formatter may pick for this country (determineCountryCode: UK is GB, a
 * territory uses its country's template, NL with certain states becomes CW, SX or AW; an unknown
 * code takes the default one), and their rules together.
 */
function rulesFor(country: string | undefined): Rules | undefined {
  if (!templates) return undefined;
  const code = country ?? '';
  if (rulesByCountry.has(code)) return rulesByCountry.get(code);
  const codes = new Set([code, code === 'UK' ? 'GB' : code]);
  for (const c of [...codes]) {
    const use = templates[c]?.use_country?.toUpperCase();
    if (use) codes.add(use);
  }
  if (codes.has('NL')) for (const c of ['CW', 'SX', 'AW']) codes.add(c);
  const picked = new Set([...codes].map((c) => templates[c] ?? templates.default));
  const rules: Rules = { values: [], text: [] };
  for (const t of picked) {
    if (!t) continue;
    for (const [pattern] of t.replace ?? []) {
      rules.values.push(new RegExp(pattern));
      const prefixed = /^\w+=/.exec(pattern);
      if (prefixed) rules.values.push(new RegExp(pattern.slice(prefixed[0].length)));
    }
    for (const [pattern] of t.postformat_replace ?? []) rules.text.push(new RegExp(pattern));
  }
  rulesByCountry.set(code, rules);
  return rules;
}

/**
 * Whether `value` (a street name, postcode, town or house number) may go through the formatter as a placeholder for
 * this country: plain words no `replace` rule matches, unlike every other value written (`others`).
 */
export function opaqueValue(value: string, others: readonly (string | undefined)[], country: string | undefined, postcode = false): boolean {
  const rules = rulesFor(country);
  if (!rules || !PLAIN_WORDS.test(value) || URL_LIKE.test(value) || others.includes(value)) return false;
  if (postcode && (value.length > 20 || /\d+;\d+/.test(value))) return false;
  return !rules.values.some((r) => r.test(value));
}

/**
 * Whether lines made from a placeholder layout are what the formatter writes: no `postformat_replace`
 * rule of the country matches them (where one does, it might have rewritten a value), no line and
 * no `, ` part of a line repeats (the formatter would have dropped it), and none is a name the
 * formatter's repeat check mistakes for one seen (`constructor`: it looks them up in a plain object).
 */
export function safeText(lines: readonly string[], country: string | undefined): boolean {
  const rules = rulesFor(country);
  if (!rules) return false;
  const text = lines.join('\n');
  if (rules.text.some((r) => r.test(text))) return false;
  const seenLines = new Set<string>();
  for (const line of lines) {
    if (seenLines.has(line) || OBJECT_NAMES.has(line)) return false;
    seenLines.add(line);
    const parts = line.split(', ');
    if (parts.length > 1 && (new Set(parts).size !== parts.length || parts.some((p) => OBJECT_NAMES.has(p)))) return false;
  }
  return true;
}

/**
 * What `name in Object.prototype` is true for (`constructor`, `toString`, `__proto__`, …: it has no
 * prototype of its own), as a set: `in` made each line and part of every label a property key (a
 * look-up in V8's table of internalized strings, and one more entry in it).
 */
const OBJECT_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));
