import { parseAddress } from '../src/address/parse.js';
import { compareComponent } from '../src/address/compare.js';
import { corpusAddresses } from '../bench/accuracy/corpus.js';
import { buildCases } from '../bench/accuracy/kinds.js';
const addresses = corpusAddresses();
const cases = buildCases(addresses).filter((c) => ['clean', 'lower-no-commas', 'postcode-first', 'folded', 'abbreviated', 'country-named', 'addition-forms', 'missing-postcode'].includes(c.kind));
let bad = 0;
const byKind = new Map<string, number>();
for (const c of cases) {
  const p = parseAddress(c.query, c.requestCountry ? { country: c.requestCountry } : {});
  const a = c.address;
  const errs: string[] = [];
  for (const f of ['street', 'houseNumber', 'postcode', 'city'] as const) {
    if (c.kind === 'missing-postcode' && f === 'postcode') continue;
    const v = p[f];
    if (!v) { errs.push(`${f} missing`); continue; }
    const verdict = compareComponent(f, v, a[f], a.country);
    if (verdict !== 'match') errs.push(`${f} ${verdict}: "${v}"`);
  }
  if (errs.length) {
    bad++;
    byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
    if (process.argv[2] !== 'q') console.log(`${c.kind} ${c.country} "${c.query}" → ${errs.join('; ')}`);
  }
}
console.log(bad, 'of', cases.length, Object.fromEntries(byKind));
