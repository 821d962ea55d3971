import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';

/** The encodings every widget file is served in besides identity, and the suffix of each one's file. */
export const ENCODED_SUFFIXES = { br: '.br', gzip: '.gz' } as const;

export interface EncodedForms {
  gzip: Uint8Array<ArrayBuffer>;
  br: Uint8Array<ArrayBuffer>;
}

/** Both compressed forms at their smallest (the files are few and small, served for a year). */
export function encodeForms(identity: Uint8Array): EncodedForms {
  return {
    gzip: new Uint8Array(gzipSync(identity, { level: 9 })),
    br: new Uint8Array(brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })),
  };
}

/**
 * A file's compressed forms: the ones `npm run build` wrote beside it (`widget.js.br`,
 * `widget.js.gz`), or compressed here. Brotli at its best quality took ~0.4 s of a start on a busy
 * machine, on the serving thread, which a restarted instance spends before it answers; reading the
 * built forms costs a few milliseconds. A form is used only if it decompresses to the file itself, so
 * one left from an earlier build (or half written) is never served: that file is compressed here.
 */
export function readEncodedForms(dir: string, name: string, identity: Uint8Array): EncodedForms {
  const built = {
    gzip: builtForm(join(dir, name + ENCODED_SUFFIXES.gzip), identity, gunzipSync),
    br: builtForm(join(dir, name + ENCODED_SUFFIXES.br), identity, brotliDecompressSync),
  };
  if (built.gzip && built.br) return { gzip: built.gzip, br: built.br };
  return encodeForms(identity);
}

function builtForm(file: string, identity: Uint8Array, decode: (data: Uint8Array) => Buffer): Uint8Array<ArrayBuffer> | null {
  if (!existsSync(file)) return null;
  try {
    const encoded = new Uint8Array(readFileSync(file));
    return Buffer.from(decode(encoded)).equals(identity) ? encoded : null;
  } catch {
    // Unreadable or not of its encoding: compressed again from the file itself.
    return null;
  }
}
