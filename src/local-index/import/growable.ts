/**
 * Columns of numbers that grow as rows are added, kept in typed arrays: 4 or 8 bytes a row off
 * the V8 heap, where a JS array of numbers costs 8 bytes a row plus up to as much again in slack,
 * and the collector walks it on every full collection (the derivation holds a country's worth).
 */
abstract class Growable<A extends Int32Array | Float64Array> {
  protected data: A;
  length = 0;

  constructor(private readonly make: (n: number) => A) {
    this.data = make(1024);
  }

  protected room(): void {
    if (this.length < this.data.length) return;
    const next = this.make(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }

  /** Appends `v`, returning its row. */
  push(v: number): number {
    this.room();
    this.data[this.length] = v;
    return this.length++;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, v: number): void {
    this.data[i] = v;
  }
}

export class GrowableInt32 extends Growable<Int32Array> {
  constructor() {
    super((n) => new Int32Array(n));
  }

  /** Sets row `i`, growing (new rows `fill`) as far as needed. */
  put(i: number, v: number, fill: number): void {
    while (this.length <= i) this.push(fill);
    this.data[i] = v;
  }
}

export class GrowableFloat64 extends Growable<Float64Array> {
  constructor() {
    super((n) => new Float64Array(n));
  }
}
