import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { detectFormat } from '../../local-index/import/detect-format.js';
import { IMPORT_FORMATS, ImportFormatError, openLocalIndex, type ImportFormat, type ImportSummary, type LocalIndex, type RecordedState } from '../../local-index/index.js';
import type { CliContext } from '../context.js';
import { localIndexOptions } from '../../local-index/config-options.js';
import { describeStore } from '../store-info.js';

interface ImportFlags {
  format?: string;
  country?: string;
  replace?: boolean;
  update?: boolean;
  /** commander's `--no-update-state`. */
  updateState?: boolean;
}

function humanSummary(s: ImportSummary, backend: string): string[] {
  const skipped = Object.entries(s.skipped);
  const lines = [
    `${s.file} (${s.format}) → local index (${backend}), countries: ${s.countries.join(', ') || 'none'}`,
    `  rows ${s.rows}: imported ${s.imported}, updated ${s.updated}, unchanged ${s.unchanged}, removed ${s.removed}, ` +
      `skipped ${skipped.reduce((a, [, n]) => a + n, 0)} in ${(s.durationMs / 1000).toFixed(1)} s (${s.ratePerSecond}/s)`,
  ];
  if (s.covered.length > 0) lines.push(`  covered countries (answered as checked): ${s.covered.join(', ')}`);
  // A re-import without --replace keeps what the new file no longer has: say so, and how to drop it.
  if (s.notInFile > 0) {
    // The countries the index compared with: a file whose rows all failed imported none, yet `--country` named one.
    const compared = [...new Set([...s.countries, ...s.covered])].sort().join(', ');
    lines.push(`  ${s.notInFile} ${s.notInFile === 1 ? 'address' : 'addresses'} of ${compared} ${s.notInFile === 1 ? 'is' : 'are'} no longer in this file and stay in the index: import with --replace to remove them`);
  }
  if (skipped.length > 0) lines.push(`  skipped by reason: ${skipped.map(([reason, n]) => `${reason} ${n}`).join(', ')}`);
  // Most OpenStreetMap addresses carry no addr:country: say how to keep them.
  const countryless = s.skipped.missing_country ?? 0;
  if (countryless > 0) lines.push(`  ${countryless} ${countryless === 1 ? 'row names' : 'rows name'} no country: pass --country CC to import ${countryless === 1 ? 'it' : 'them'}`);
  // What the data did not state but the import derived (docs/towns-and-postcodes.md), and boundaries it could not close.
  if (s.derived.city + s.derived.postcode > 0) lines.push(`  derived: a town for ${s.derived.city}, a postcode for ${s.derived.postcode} ${s.derived.postcode === 1 ? 'address' : 'addresses'}`);
  if (s.areasNotClosed.length > 0) lines.push(`  ${s.areasNotClosed.length} boundary ${s.areasNotClosed.length === 1 ? 'relation' : 'relations'} could not be closed (no area of the index):`);
  for (const a of s.areasNotClosed) lines.push(`    relation ${a.relation}${a.name ? ` ${a.name}` : ''}: ${a.reason}`);
  for (const p of s.problems) lines.push(`  row ${p.row}: ${p.reason}${p.detail ? ` (${p.detail})` : ''}`);
  if (s.problemsTruncated) lines.push('  … more bad rows were counted but not listed');
  return lines;
}

/** A progress bar on stderr, only when a person is watching (a TTY). */
function progressBar(): { update(done: number, total: number, rows: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar({ stream: process.stderr, format: 'importing [{bar}] {percentage}% | {rows} rows', hideCursor: true });
  let started = false;
  return {
    update(done, total, rows) {
      if (!started) bar.start(total, 0, { rows: 0 });
      started = true;
      bar.update(done, { rows });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** `import FILE [--format openaddresses|osm|csv] [--country CC] [--replace] [--update] [--json]`: fills the `local` provider's index. */
export function registerImportCommand(program: Command, ctx: CliContext): void {
  program
    .command('import')
    .description('import open address data into the local index (OpenAddresses CSV, OpenStreetMap PBF, or a plain CSV), or apply an OpenStreetMap change file')
    .argument('<file>', 'file to import (with --update: an OsmChange file, .osc or .osc.gz)')
    .option('--format <format>', `${IMPORT_FORMATS.join('|')} (default: guessed from the file)`)
    .option('--country <cc>', 'ISO 3166-1 alpha-2 country of the rows (required for OpenAddresses, fallback otherwise)')
    .option('--replace', 'remove addresses of the imported countries that the file no longer contains')
    .option('--update', 'apply an OpenStreetMap change file (replication diff) to the index built from the extract it follows')
    .option('--no-update-state', 'OpenStreetMap: do not record what --update needs (saves the time and disk; later diffs cannot be applied)')
    .action(async (file: string, flags: ImportFlags) => {
      if (flags.format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(flags.format)) {
        throw new ImportFormatError(`--format must be one of ${IMPORT_FORMATS.join(', ')}`);
      }
      if (flags.update && (flags.replace || (flags.format !== undefined && flags.format !== 'osm'))) {
        throw new ImportFormatError('--update applies an OpenStreetMap change file: it takes neither --replace nor a --format other than osm');
      }
      const format = flags.update ? 'osm' : ((flags.format as ImportFormat | undefined) ?? (await detectFormat(file).catch(() => 'csv' as const)));
      ctx.note(`store: local index in ${describeStore(ctx.config, 'local-index')}`);
      const index = await openLocalIndex(localIndexOptions(ctx.config, false));
      try {
        if (flags.update) {
          const summary = await index.applyOsmChange(file, flags.country ? { country: flags.country } : {});
          const lines = humanSummary(summary, index.backend);
          if (summary.relationsIgnored > 0) lines.push(`  ${summary.relationsIgnored} changed relations (boundaries) not applied: re-import the extract now and then to take them in`);
          ctx.out({ ...summary }, lines);
          return;
        }
        // The recorded update state is withdrawn by the import's own commit (never before: a file
        // that fails to read leaves the update chain as it was), and recorded again during the import.
        const recordState = format === 'osm' && flags.updateState !== false;
        const { updateState, ...summary } = await importWithProgress(index, file, format, flags, recordState);
        const lines = humanSummary(summary, index.backend);
        if (updateState && 'error' in updateState) {
          ctx.out({ ...summary, updateState }, lines);
          throw new Error(`${updateState.error}: the index holds ${file}, but updates are off until a full import of that extract completes (addressd import ${file})`);
        }
        const recorded = updateState;
        if (recorded) lines.push(`  recorded for --update: ${recorded.ways} address and building ways, ${recorded.areas} boundaries (while importing, ${(recorded.durationMs / 1000).toFixed(1)} s)`);
        else if (format === 'osm') await index.skipOsmState(file);
        ctx.out({ ...summary, ...(recorded ? { updateState: recorded } : {}) }, lines);
      } finally {
        await index.close();
      }
    });
}

async function importWithProgress(index: LocalIndex, file: string, format: ImportFormat, flags: ImportFlags, recordOsmState: boolean): Promise<ImportSummary & { updateState?: RecordedState }> {
  const bar = progressBar();
  try {
    return await index.importFile(file, {
      format,
      ...(flags.country ? { country: flags.country } : {}),
      replace: flags.replace === true,
      recordOsmState,
      onProgress: (p) => bar.update(p.bytesRead, p.totalBytes, p.rows),
    });
  } finally {
    bar.stop();
  }
}
