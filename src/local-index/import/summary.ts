import type { DerivedCounts, ImportFormat, ImportSummary, RowProblem, SkipReason, UnclosedArea } from '../types.js';
import { quoted } from './record.js';

/** Bad rows listed one by one up to this many; beyond it they are only counted. */
export const MAX_PROBLEMS = 1000;

export class SummaryBuilder {
  rows = 0;
  imported = 0;
  updated = 0;
  unchanged = 0;
  private readonly skipped: Partial<Record<SkipReason, number>> = {};
  private readonly problems: RowProblem[] = [];
  private truncated = false;
  private readonly countries = new Set<string>();
  readonly derived: DerivedCounts = { city: 0, postcode: 0 };
  readonly areasNotClosed: UnclosedArea[] = [];
  private readonly started = performance.now();

  constructor(
    private readonly file: string,
    private readonly format: ImportFormat,
  ) {}

  skip(row: number | string, reason: SkipReason, detail?: string): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
    // A detail may quote a cell (a country, a parser's message): the list names values, never prints a megabyte.
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(detail ? { row, reason, detail: detail.length > 200 ? quoted(detail) : detail } : { row, reason });
    else this.truncated = true;
  }

  country(code: string): void {
    this.countries.add(code);
  }

  get countryList(): string[] {
    return [...this.countries].sort();
  }

  build(removed: number, notInFile = 0, covered: string[] = []): ImportSummary {
    const durationMs = Math.round(performance.now() - this.started);
    return {
      file: this.file,
      format: this.format,
      countries: this.countryList,
      rows: this.rows,
      imported: this.imported,
      updated: this.updated,
      unchanged: this.unchanged,
      removed,
      notInFile,
      covered,
      skipped: this.skipped,
      problems: this.problems,
      problemsTruncated: this.truncated,
      derived: { ...this.derived },
      areasNotClosed: [...this.areasNotClosed].sort((a, b) => a.relation - b.relation),
      durationMs,
      ratePerSecond: durationMs > 0 ? Math.round((this.rows * 1000) / durationMs) : this.rows,
    };
  }
}
