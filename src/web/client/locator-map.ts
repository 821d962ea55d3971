import type { DemoValidateResponse } from '../../contract/validate.js';
import { svg } from './dom.js';
import { providerName } from './wording.js';

interface Spot {
  lat: number;
  lng: number;
  label: string;
}

const W = 320;
const H = 180;
const NICE = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000];

/** `52.37148, 4.89231` as the consensus report writes a location. */
function parsePoint(text: string | undefined): { lat: number; lng: number } | undefined {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text ?? '');
  return m ? { lat: Number(m[1]), lng: Number(m[2]) } : undefined;
}

/** Where other providers put the address, when they disagree about the location. */
export function alternativeSpots(response: DemoValidateResponse): Spot[] {
  return response.consensus.disagreements.flatMap((d) =>
    d.differences.flatMap((diff) => {
      const p = diff.field === 'location' ? parsePoint(diff.alternative) : undefined;
      return p ? [{ ...p, label: providerName(d.provider) }] : [];
    }),
  );
}

/**
 * A small map without tiles: the address as a dot on a metre grid, other providers' positions as
 * rings, and a scale bar. It shows what a tile map would (where, and how far apart) with no
 * outside request.
 */
export function locatorMap(lat: number, lng: number, alternatives: Spot[]): SVGElement {
  const mPerLng = 111_320 * Math.cos((lat * Math.PI) / 180);
  const toXY = (p: { lat: number; lng: number }) => ({ x: (p.lng - lng) * mPerLng, y: (p.lat - lat) * 110_540 });
  const far = Math.max(0, ...alternatives.map((a) => Math.hypot(toXY(a).x, toXY(a).y)));
  // Half the height covers the farthest point with room to spare, and never less than 100 m.
  const halfSpan = Math.max(100, far * 1.3);
  const scale = H / 2 / halfSpan;
  const step = NICE.find((n) => n >= halfSpan / 2) ?? NICE[NICE.length - 1]!;
  const px = (p: { lat: number; lng: number }) => ({ x: W / 2 + toXY(p).x * scale, y: H / 2 - toXY(p).y * scale });

  const title = `Map of the found location, ${lat.toFixed(5)}, ${lng.toFixed(5)}`;
  const desc = alternatives.length
    ? alternatives.map((a) => `${a.label} places it ${Math.round(Math.hypot(toXY(a).x, toXY(a).y))} m away`).join('; ')
    : 'No provider places it elsewhere.';
  const map = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'locator', role: 'img', 'aria-label': `${title}. ${desc}` });
  map.append(svg('title', {}, title));

  const grid = svg('g', { class: 'locator-grid' });
  const gridPx = step * scale;
  for (let x = (W / 2) % gridPx; x <= W; x += gridPx) grid.append(svg('line', { x1: x, y1: 0, x2: x, y2: H }));
  for (let y = (H / 2) % gridPx; y <= H; y += gridPx) grid.append(svg('line', { x1: 0, y1: y, x2: W, y2: y }));
  map.append(svg('rect', { class: 'locator-bg', x: 0, y: 0, width: W, height: H }), grid);

  for (const alt of alternatives) {
    const p = px(alt);
    map.append(svg('circle', { class: 'locator-alt', cx: p.x, cy: p.y, r: 6 }));
  }
  map.append(svg('circle', { class: 'locator-halo', cx: W / 2, cy: H / 2, r: 14 }));
  map.append(svg('circle', { class: 'locator-dot', cx: W / 2, cy: H / 2, r: 6 }));

  const bar = step * scale;
  const scaleBar = svg('g', { class: 'locator-scale' });
  scaleBar.append(
    svg('line', { x1: 12, y1: H - 14, x2: 12 + bar, y2: H - 14 }),
    svg('text', { x: 12, y: H - 20 }, step >= 1000 ? `${step / 1000} km` : `${step} m`),
  );
  map.append(scaleBar);
  return map;
}
