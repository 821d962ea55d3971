import { readValidateInput, type ValidateInput } from '../../engine/validate-input.js';
import type { RowJob } from './row-lookup.js';

/**
 * A lookup thread's rows of the next chunk, read and primed while it still looks up the current
 * one (`LookupPool.primeAhead`). Priming a chunk on PostgreSQL is one or two set-based statements
 * that the thread used to wait for with nothing else to do (a third of its time on a 40,000-row
 * list); sent ahead, the server runs them while the thread scores the rows before. The rows then
 * find their readings (the engine's, so a row is read once) and the index's answers waiting.
 * Answers do not depend on it: a row primed on another thread, or not at all, is primed with its
 * batch as before.
 */
export class PrimedAhead {
  /** Each row's reading and the priming that carries it, by row index (unique within a run). */
  private readonly rows = new Map<number, { input: ValidateInput; primed: Promise<void> }>();
  /** One priming after another: the statements of a thread's connection pool stay few. */
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly prime: ((inputs: ValidateInput[]) => Promise<void>) | undefined) {}

  /** Reads the rows and primes them after the primings before (a failure only leaves the rows to ask for themselves). */
  add(jobs: RowJob[]): void {
    const inputs = jobs.map((job) => readValidateInput(job.request));
    const prime = this.prime;
    const primed = prime ? this.last.then(() => prime(inputs)).catch(() => undefined) : this.last;
    this.last = primed;
    jobs.forEach((job, i) => this.rows.set(job.index, { input: inputs[i]!, primed }));
  }

  /**
   * The readings of the rows read ahead (each once: then forgotten), and once their primings are
   * answered. Rows not read ahead are not in the map.
   */
  async take(jobs: RowJob[]): Promise<Map<number, ValidateInput>> {
    const found = new Map<number, ValidateInput>();
    const waits = new Set<Promise<void>>();
    for (const job of jobs) {
      const row = this.rows.get(job.index);
      if (!row) continue;
      this.rows.delete(job.index);
      found.set(job.index, row.input);
      waits.add(row.primed);
    }
    await Promise.all(waits);
    return found;
  }

  /**
   * Forgets rows up to `index` (a batch's last row): chunks run in order, so a row read ahead at
   * or before it that this thread was not given went to another thread, or was a repeat.
   */
  forgetThrough(index: number): void {
    for (const key of this.rows.keys()) if (key <= index) this.rows.delete(key);
  }

  get size(): number {
    return this.rows.size;
  }
}
