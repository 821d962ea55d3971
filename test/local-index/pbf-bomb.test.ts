import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import parsers from 'osm-pbf-parser/lib/parsers.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { createSandbox, STORAGE_BACKENDS, type Sandbox } from '../support/backends.js';
import { osmFixture } from './support/osm-fixture.js';

/**
 * Issue 36: a `.osm.pbf` whose data block inflates past the format's 32 MiB (or past the
 * `raw_size` it declares) is a file error before the block is allocated; the index, its source
 * and the recorded update state stay as they were. The bomb is built here: a few dozen KB that
 * inflate to 40 MiB of zeros.
 */
const MiB = 1024 * 1024;
const BOMB = deflateSync(Buffer.alloc(40 * MiB));

function fileBlock(type: string, blob: Record<string, unknown>): Buffer {
  const encoded = parsers.file.Blob.encode(blob);
  const header = parsers.file.BlobHeader.encode({ type, datasize: encoded.length });
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, header, encoded]);
}

/** A valid OSMHeader block, then one OSMData block that is the bomb; `rawSize` as it declares (or none). */
function pbfBomb(rawSize: number | undefined): Buffer {
  const header = parsers.osm.HeaderBlock.encode({ required_features: ['OsmSchema-V0.6', 'DenseNodes'], writingprogram: 'addressd tests' });
  return Buffer.concat([
    fileBlock('OSMHeader', { raw_size: header.length, zlib_data: deflateSync(header) }),
    fileBlock('OSMData', { ...(rawSize === undefined ? {} : { raw_size: rawSize }), zlib_data: BOMB }),
  ]);
}

describe.each(STORAGE_BACKENDS)('a PBF decompression bomb (%s)', (backend) => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await createSandbox(backend);
  });
  afterEach(async () => sandbox.cleanup());

  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: sandbox.env });
    return { code, stdout, stderr };
  }
  const status = async () => JSON.parse((await cli('index', 'status', '--json')).stdout) as Record<string, unknown>;

  it.each([
    ['declaring its true size (over 32 MiB)', 40 * MiB, /declares 41943040 bytes uncompressed, over the format's limit of 33554432/],
    ['declaring a small size it inflates past', 1000, /inflates past the 1000 bytes it declares/],
    ['declaring no size, past 32 MiB', undefined, /inflates past the format's limit of 33554432 bytes/],
  ])('%s: a file error; index, source and update state untouched', async (_name, rawSize, message) => {
    const good = join(sandbox.dataDir, 'liechtenstein.osm.pbf');
    writeFileSync(good, osmFixture());
    expect((await cli('import', good, '--country', 'LI')).code).toBe(0);
    const before = await status();
    const bomb = join(sandbox.dataDir, 'bomb.osm.pbf');
    writeFileSync(bomb, pbfBomb(rawSize));
    expect(BOMB.length).toBeLessThan(MiB);
    const res = await cli('import', bomb, '--country', 'LI');
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(message);
    expect(res.stderr).toMatch(/^error: Corrupt PBF block at byte \d+/m);
    expect(await status()).toEqual(before);
    expect(JSON.stringify(before)).toContain('liechtenstein.osm.pbf');
    expect(JSON.stringify(before)).not.toContain('bomb');
  });
});
