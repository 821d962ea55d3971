type Tags = Record<string, string>;

/** At most this many numbers come from one interpolation way (a typo like `2` … `20000` is cut there). */
export const MAX_INTERPOLATED = 1000;

/** Whether a way is an interpolation way: `addr:interpolation`, and no number of its own. */
export const isInterpolation = (tags: Tags): boolean => Boolean(tags['addr:interpolation']) && !tags['addr:housenumber'];

const LETTERED = /^(\d+)\s*([a-z]?)$/i;

/**
 * The numbers strictly between two numbered nodes, each with its share of the way between
 * them: `odd`/`even`/`all` (the parity the number must have), a step (`2`, `3`), or
 * `alphabetic` (`12a` … `12e`: the letters between, on one number). Other values and numbers
 * that are not plain integers give none, as Nominatim does.
 */
export function numbersBetween(kind: string, from: string, to: string): { hn: string; share: number }[] {
  if (kind === 'alphabetic') {
    const a = LETTERED.exec(from.trim());
    const b = LETTERED.exec(to.trim());
    if (!a || !b || a[1] !== b[1]) return [];
    const [x, y] = [a[2] ? a[2].toLowerCase().charCodeAt(0) : 96, b[2] ? b[2].toLowerCase().charCodeAt(0) : 96];
    const dir = Math.sign(y - x);
    const out: { hn: string; share: number }[] = [];
    for (let c = x + dir; dir !== 0 && c !== y; c += dir) out.push({ hn: `${a[1]}${String.fromCharCode(c)}`, share: (c - x) / (y - x) });
    return out;
  }
  const step = kind === 'odd' || kind === 'even' ? 2 : kind === 'all' ? 1 : /^\d+$/.test(kind) ? Number(kind) : 0;
  if (step === 0 || !/^\d+$/.test(from.trim()) || !/^\d+$/.test(to.trim())) return [];
  const [a, b] = [Number(from), Number(to)];
  const dir = Math.sign(b - a);
  const fits = (n: number) => (kind === 'odd' ? n % 2 === 1 : kind === 'even' ? n % 2 === 0 : (n - a) % step === 0);
  const out: { hn: string; share: number }[] = [];
  for (let n = a + dir; dir !== 0 && n !== b && out.length < MAX_INTERPOLATED; n += dir) if (fits(n)) out.push({ hn: String(n), share: (n - a) / (b - a) });
  return out;
}

/** The tags of an interpolated address: the way's, else its first numbered node's (where the way names no street). */
const INHERITED = ['addr:street', 'addr:place', 'addr:postcode', 'addr:city', 'addr:country', 'addr:state'];

export interface InterpolatedAddress {
  tags: Tags;
  lat: number;
  lng: number;
}

/**
 * Every number an interpolation way stands for, at its place along the way (by distance
 * between the two numbered nodes around it, as Nominatim places them); the numbered nodes
 * themselves are addresses of their own. `at` gives a node's coordinates, `numbered` a node's
 * address tags (undefined for a node without a house number).
 */
export function interpolate(tags: Tags, refs: number[], at: (id: number) => [number, number] | undefined, numbered: (id: number) => Tags | undefined): InterpolatedAddress[] {
  const kind = tags['addr:interpolation']!;
  const points: { c: [number, number]; d: number; tags?: Tags }[] = [];
  for (const ref of refs) {
    const c = at(ref);
    if (!c) continue;
    const prev = points.at(-1);
    const d = prev ? prev.d + Math.hypot(c[0] - prev.c[0], (c[1] - prev.c[1]) * Math.cos((c[0] * Math.PI) / 180)) : 0;
    points.push({ c, d, tags: numbered(ref) });
  }
  const ends = points.map((p, i) => ({ p, i })).filter(({ p }) => p.tags?.['addr:housenumber']);
  const out: InterpolatedAddress[] = [];
  for (let e = 1; e < ends.length && out.length < MAX_INTERPOLATED; e++) {
    const [a, b] = [ends[e - 1]!, ends[e]!];
    const inherited = Object.fromEntries(INHERITED.flatMap((k) => (a.p.tags![k] ? [[k, a.p.tags![k]]] : [])));
    const own = Object.fromEntries(Object.entries(tags).filter(([k]) => k.startsWith('addr:') && k !== 'addr:interpolation'));
    for (const { hn, share } of numbersBetween(kind, a.p.tags!['addr:housenumber']!, b.p.tags!['addr:housenumber']!)) {
      if (out.length >= MAX_INTERPOLATED) break;
      const d = a.p.d + share * (b.p.d - a.p.d);
      let i = a.i;
      while (i < b.i - 1 && points[i + 1]!.d < d) i++;
      const [p, q] = [points[i]!, points[i + 1]!];
      const f = q.d > p.d ? (d - p.d) / (q.d - p.d) : 0;
      out.push({ tags: { ...inherited, ...own, 'addr:housenumber': hn }, lat: p.c[0] + f * (q.c[0] - p.c[0]), lng: p.c[1] + f * (q.c[1] - p.c[1]) });
    }
  }
  return out;
}
