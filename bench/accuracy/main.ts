import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openHarness } from './harness.js';
import { buildCases, KINDS, type Kind } from './kinds.js';
import { formatTable, tally } from './table.js';

/**
 * `npm run accuracy [-- options]`: the verdict accuracy table of issue 15. The corpus (the
 * emulators' dataset, the import fixtures, the rows written in rows.ts, and a sample of an OSM
 * extract when one is given or test/fixtures holds the Liechtenstein one) is imported into
 * `local`, typed every way kinds.ts knows, and sent through /v1/validate.
 *
 *   --pbf <file.osm.pbf> [--pbf-country LI] [--pbf-sample 60]   an extract to add
 *   --kind <kind>     only that kind          --country <CC>   only that country
 *   --failures <n>    list up to n failures per kind (default 5)  --seed <n>
 */
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const bundled = fileURLToPath(new URL('../../test/fixtures/import/liechtenstein-latest.osm.pbf', import.meta.url));
const pbfPath = opt('pbf') ?? (existsSync(bundled) ? bundled : undefined);
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
} finally {
  await harness.close();
}
