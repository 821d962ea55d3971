import type { Command } from 'commander';
import { localIndexOptions } from '../../local-index/config-options.js';
import { openLocalIndex, type IndexStatus } from '../../local-index/index.js';
import type { CliContext } from '../context.js';
import { describeStore } from '../store-info.js';

function humanStatus(s: IndexStatus): string[] {
  const lines = [`local index (${s.backend}), covered countries: ${s.covered.join(', ') || 'none'}`];
  for (const c of s.countries) {
    lines.push(
      `  ${c.country}: ${c.addresses} addresses, ${c.covered ? 'covered' : 'not covered (answers unverified)'}, ` +
        `source ${c.source ?? 'unknown'}${c.importedAt ? ` imported at ${c.importedAt}` : ''}, ` +
        `last change file ${c.lastChange ? `${c.lastChange.file} at ${c.lastChange.at}` : 'none'}, --update ${c.updates ? 'can run' : 'off'}`,
    );
  }
  const { extract, failed, pending } = s.updates;
  if (extract) lines.push(`  updates follow ${extract.file} (recorded at ${extract.at})`);
  if (pending) lines.push('  an update did not complete: apply the same change file again before any later one');
  if (failed) lines.push(`  updates are off: the import of ${failed.file} at ${failed.at} withdrew the update state and did not record it again (${failed.error}); a full import of that extract turns them back on`);
  else if (!extract) lines.push('  updates are off: no OpenStreetMap extract is recorded (import one to follow its change files)');
  return lines;
}

/** `index status [--json]`: per country, what the local index holds, where it came from, and whether it can be updated. */
export function registerIndexCommands(program: Command, ctx: CliContext): void {
  const index = program.command('index').description('the local index');
  index
    .command('status')
    .description('per country: addresses, source file, imported at, last change file applied, whether --update can run, whether covered')
    .action(async () => {
      ctx.note(`store: local index in ${describeStore(ctx.config, 'local-index')}`);
      const local = await openLocalIndex(localIndexOptions(ctx.config, false));
      try {
        const status = await local.status();
        ctx.out({ ...status }, humanStatus(status));
      } finally {
        await local.close();
      }
    });
}
