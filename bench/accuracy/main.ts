import { openHarness } from './harness.js';
import { countCompleteness, formatCompleteness, formatStreetNumberRun, streetNumberRun } from './completeness.js';
import { buildCases, KINDS, type Kind } from './kinds.js';
import { formatTable, tally } from './table.js';

/**
 * `npm run accuracy [-- options]`: the verdict accuracy table of issue 15 and the completeness
 * figures of issue 34. The corpus (the emulators' dataset, the import fixtures, the rows written
 * in rows.ts, and a sample of an OSM extract when `--pbf` gives one) is imported into `local`,
 * typed every way kinds.ts knows, and sent through /v1/validate; then, per country, the share of
 * valid answers whose postal lines carry a town, a postcode and both. With `--pbf`, every address
 * of the extract is also typed as `street number` with the country alone (a shop's customer
 * letting the service complete the rest), and the same shares are given over those answers.
 *
 *   --pbf <file.osm.pbf> [--pbf-country LI] [--pbf-sample 60] [--pbf-street-sample <n>]   an extract to add
 *   --kind <kind>     only that kind          --country <CC>   only that country
 *   --failures <n>    list up to n failures per kind (default 5)  --seed <n>
 */
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
// No extract is bundled (real ones are large and change): `--pbf` adds one, e.g. a Geofabrik country file.
const pbfPath = opt('pbf');
const seed = Number(opt('seed') ?? '15');
const onlyKind = opt('kind') as Kind | undefined;
const onlyCountry = opt('country')?.toUpperCase();
const failures = Number(opt('failures') ?? '5');
if (onlyKind && !KINDS.includes(onlyKind)) {
  console.error(`unknown kind ${onlyKind}; one of ${KINDS.join(', ')}`);
  process.exit(2);
}

const started = performance.now();
const harness = await openHarness(
  pbfPath ? { pbf: { path: pbfPath, country: (opt('pbf-country') ?? 'LI').toUpperCase(), sample: Number(opt('pbf-sample') ?? '60'), seed } } : {},
);
try {
  const cases = buildCases(harness.addresses, harness.universe, seed).filter(
    (c) => (!onlyKind || c.kind === onlyKind) && (!onlyCountry || c.country === onlyCountry),
  );
  const outcomes = await harness.run(cases);
  const t = tally(outcomes);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`${harness.addresses.length} addresses, ${cases.length} cases through /v1/validate (PROVIDERS=local) in ${seconds} s; % answered as expected:\n`);
  console.log(formatTable(t));
  if (failures > 0) {
    for (const kind of KINDS) {
      const failed = outcomes.filter((o) => o.case.kind === kind && !o.ok);
      if (failed.length === 0) continue;
      console.log(`\n${kind}: ${failed.length} not as expected${failed.length > failures ? ` (first ${failures})` : ''}`);
      for (const o of failed.slice(0, failures)) console.log(`  ${o.case.country} "${o.case.query}" → ${o.got}`);
    }
  }
  const valid = outcomes.filter((o) => o.verdict === 'valid').map((o) => ({ country: o.case.country, lines: o.lines }));
  console.log('\nCompleteness: of the valid answers, % whose address.lines carry a town, a postcode, both:\n');
  console.log(formatCompleteness(countCompleteness(valid), 'valid answers'));

  if (harness.extract.length > 0) {
    const sample = Number(opt('pbf-street-sample') ?? harness.extract.length);
    const typed = harness.extract.filter((a) => !onlyCountry || a.country === onlyCountry).slice(0, sample);
    const run = await streetNumberRun(typed, (query, country) => harness.validate(query, country));
    console.log(`\nThe extract's ${typed.length} addresses typed as \`street number\` with the country alone: % found (the address, valid or completed), and % of every answer whose address.lines carry a town, a postcode, both:\n`);
    console.log(formatStreetNumberRun(run));
    const short = run.filter((o) => !(o.lines.town && o.lines.postcode));
    if (failures > 0 && short.length > 0) {
      console.log(`\n${short.length} answers without a town or postcode in their lines${short.length > failures ? ` (first ${failures})` : ''}`);
      for (const o of short.slice(0, failures)) console.log(`  ${o.address.country} "${o.query}" → ${o.got}`);
    }
  }
} finally {
  await harness.close();
}
