/** Numbers a block of StagedRefs: 8 MiB. */
const BLOCK = 1 << 20;

/**
 * Staged ways' node lists kept in memory, up to `cap` numbers in all, beside the staging file's
 * rows that point at them (osm-pbf.ts): a way read back is then a view of these bytes, where a
 * list stored in the file came back as a buffer of its own per way, each copied into an array
 * (most of the cost of reading a million staged ways). Past `cap` (or a list longer than a
 * block) the lists go to the file, so memory stays bounded whatever the file's size. Kept in
 * blocks of a fixed size, a list within one: no array grown by copying, no slack of a doubling.
 */
export class StagedRefs {
  private readonly blocks: Float64Array[] = [];
  /** Numbers used in the last block. */
  private used = BLOCK;
  private total = 0;

  constructor(private readonly cap: number) {}

  /** Keeps `refs`, returning where (for `at`); -1 when they would pass the cap (the caller stores them itself). */
  put(refs: readonly number[]): number {
    const size = 1 + refs.length;
    if (size > BLOCK || this.total + size > this.cap) return -1;
    if (this.used + size > BLOCK) {
      this.blocks.push(new Float64Array(Math.min(BLOCK, this.cap)));
      this.used = 0;
    }
    const block = this.blocks[this.blocks.length - 1]!;
    const at = this.used;
    block[at] = refs.length;
    for (let i = 0; i < refs.length; i++) block[at + 1 + i] = refs[i]!;
    this.used += size;
    this.total += size;
    return (this.blocks.length - 1) * BLOCK + at;
  }

  /** The list kept at `at`: a view. */
  at(at: number): Float64Array {
    const block = this.blocks[Math.floor(at / BLOCK)]!;
    const i = at % BLOCK;
    return block.subarray(i + 1, i + 1 + block[i]!);
  }
}
