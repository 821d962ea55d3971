/**
 * The node lists of the staged ways, also kept in memory while they fit one node pass (the
 * reader's `prefill`, so at most `NODE_PASS_BUDGET` references, 8 bytes each): the way centres
 * are then computed from here, not from the staging file read back way by way (a third of the
 * staging's cost). Ways go in as pass 1 and pass 2 stage them; `idOrder` gives them in the
 * staging table's order (by id), or undefined when the file's order does not allow it cheaply.
 */
export class HeldWayRefs {
  private ids = new Float64Array(1 << 12);
  private starts = new Int32Array(1 << 12);
  private flags = new Uint8Array(1 << 12);
  private refs = new Float64Array(1 << 16);
  private n = 0;
  private used = 0;

  get length(): number {
    return this.n;
  }

  add(id: number, refs: ArrayLike<number>, interpolation: boolean): void {
    if (this.n + 1 >= this.ids.length) {
      this.ids = grow(this.ids, new Float64Array(this.ids.length * 2));
      this.starts = grow(this.starts, new Int32Array(this.starts.length * 2));
      this.flags = grow(this.flags, new Uint8Array(this.flags.length * 2));
    }
    while (this.used + refs.length > this.refs.length) this.refs = grow(this.refs, new Float64Array(this.refs.length * 2));
    this.ids[this.n] = id;
    this.starts[this.n] = this.used;
    this.flags[this.n] = interpolation ? 1 : 0;
    for (let i = 0; i < refs.length; i++) this.refs[this.used++] = refs[i]!;
    this.n++;
    this.starts[this.n] = this.used;
  }

  id(i: number): number {
    return this.ids[i]!;
  }

  interpolation(i: number): boolean {
    return this.flags[i] === 1;
  }

  /** Way `i`'s node ids (a view: valid until the next `add`). */
  refsAt(i: number): Float64Array {
    return this.refs.subarray(this.starts[i]!, this.starts[i + 1]!);
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
