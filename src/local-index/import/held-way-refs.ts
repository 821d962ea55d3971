/** Node references held at most (8 bytes each: 64 MiB); a file with more reads its ways back from the staging file. */
export const HELD_REFS_BUDGET = 8_000_000;
/** References a page holds: pages are added as ways come, so holding never copies what it holds. */
const PAGE = 1 << 20;

/**
 * The node lists of the staged ways, also kept in memory while they fit one node pass and
 * `HELD_REFS_BUDGET` (a country of a million addresses holds about 4.3M): the way centres are
 * then computed from here, not from the staging file read back way by way (a third of the
 * staging's cost). Ways go in as pass 1 and pass 2 stage them; `idOrder` gives them in the
 * staging table's order (by id), or undefined when the file's order does not allow it cheaply.
 */
export class HeldWayRefs {
  private ids = new Float64Array(1 << 12);
  private starts = new Float64Array(1 << 12);
  private lens = new Int32Array(1 << 12);
  private flags = new Uint8Array(1 << 12);
  private readonly pages: Float64Array[] = [];
  private n = 0;
  /** References held, and where the next way's go (page * PAGE + offset). */
  private held = 0;
  private next = 0;

  get length(): number {
    return this.n;
  }

  /** Whether `refs` more references stay within the budget. */
  fits(refs: number): boolean {
    return this.held + refs <= HELD_REFS_BUDGET;
  }

  add(id: number, refs: ArrayLike<number>, interpolation: boolean): void {
    if (this.n === this.ids.length) {
      this.ids = grow(this.ids, new Float64Array(this.n * 2));
      this.starts = grow(this.starts, new Float64Array(this.n * 2));
      this.lens = grow(this.lens, new Int32Array(this.n * 2));
      this.flags = grow(this.flags, new Uint8Array(this.n * 2));
    }
    // A way's references stay on one page (a way longer than a page gets a page of its own size).
    let offset = this.next % PAGE;
    let page = (this.next - offset) / PAGE;
    if (page === this.pages.length || offset + refs.length > this.pages[page]!.length) {
      if (page < this.pages.length) page++;
      this.pages.push(new Float64Array(Math.max(PAGE, refs.length)));
      offset = 0;
    }
    const into = this.pages[page]!;
    for (let i = 0; i < refs.length; i++) into[offset + i] = refs[i]!;
    this.ids[this.n] = id;
    this.starts[this.n] = page * PAGE + offset;
    this.lens[this.n] = refs.length;
    this.flags[this.n] = interpolation ? 1 : 0;
    this.n++;
    this.held += refs.length;
    this.next = page * PAGE + offset + refs.length;
  }

  id(i: number): number {
    return this.ids[i]!;
  }

  interpolation(i: number): boolean {
    return this.flags[i] === 1;
  }

  /** Way `i`'s node ids (a view on its page). */
  refsAt(i: number): Float64Array {
    const start = this.starts[i]!;
    const offset = start % PAGE;
    return this.pages[(start - offset) / PAGE]!.subarray(offset, offset + this.lens[i]!);
  }

  /**
   * The ways by ascending id, as `ORDER BY id` reads the staging table: the address multipolygons
   * (negated relation ids, staged last, in the relations' ascending order) first, backwards, then
   * the ways in file order. Undefined unless the ways' ids strictly ascend and the relations' do
   * (a file not sorted, or an id twice, which the staging table keeps once): then the table is read.
   */
  idOrder(): Int32Array | undefined {
    let split = this.n;
    while (split > 0 && this.ids[split - 1]! < 0) split--;
    for (let i = 1; i < split; i++) if (!(this.ids[i]! > this.ids[i - 1]!)) return undefined;
    for (let i = split; i < this.n; i++) if (this.ids[i]! >= 0 || (i > split && !(this.ids[i]! < this.ids[i - 1]!))) return undefined;
    if (split > 0 && this.ids[0]! < 0) return undefined;
    const order = new Int32Array(this.n);
    let k = 0;
    for (let i = this.n - 1; i >= split; i--) order[k++] = i;
    for (let i = 0; i < split; i++) order[k++] = i;
    return order;
  }
}

function grow<A extends Float64Array | Int32Array | Uint8Array>(from: A, to: A): A {
  to.set(from);
  return to;
}
