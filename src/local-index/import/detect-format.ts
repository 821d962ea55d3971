import { open } from 'node:fs/promises';
import type { ImportFormat } from '../types.js';
import { looksLikePbf } from './pbf-blocks.js';

/**
 * Guesses the format when `--format` is not given: `.pbf`, or a file that starts with a PBF
 * header block, is OpenStreetMap; a CSV whose header has LON, LAT, NUMBER and STREET is
 * OpenAddresses; any other file is read as the plain CSV (whose header check names what it misses).
 */
export async function detectFormat(path: string): Promise<ImportFormat> {
  if (/\.pbf$/i.test(path)) return 'osm';
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (looksLikePbf(head.subarray(0, bytesRead))) return 'osm';
    const firstLine = head.subarray(0, bytesRead).toString('utf8').split(/\r?\n/)[0] ?? '';
    const names = firstLine.split(',').map((n) => n.trim().replace(/^"|"$/g, '').toUpperCase());
    return ['LON', 'LAT', 'NUMBER', 'STREET'].every((c) => names.includes(c)) ? 'openaddresses' : 'csv';
  } finally {
    await file.close();
  }
}
