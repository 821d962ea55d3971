import { describe, expect, it } from 'vitest';
import { Wire } from '../../src/local-index/import/pbf-dense.js';

/** The protobuf reader the PBF decoding stands on: skipping a field a block carries but we do not read. */
describe('Wire.skip', () => {
  it('skips a length-delimited field from after its length (a key, length 3, three bytes, then the next field)', () => {
    // field 9 wire 2, length 3, 'abc', then field 1 wire 0 = 150 (varint 0x96 0x01)
    const buf = Buffer.from([0x4a, 0x03, 0x61, 0x62, 0x63, 0x08, 0x96, 0x01]);
    const w = new Wire(buf, 0, buf.length);
    expect(w.varint() & 7).toBe(2);
    w.skip(2);
    expect(w.varint()).toBe(0x08);
    expect(w.varint()).toBe(150);
    expect(w.pos).toBe(buf.length);
  });

  it('skips varint, 64-bit and 32-bit fields', () => {
    const buf = Buffer.from([0xac, 0x02, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 0x07]);
    const w = new Wire(buf, 0, buf.length);
    w.skip(0);
    w.skip(1);
    w.skip(5);
    expect(w.varint()).toBe(7);
  });
});
