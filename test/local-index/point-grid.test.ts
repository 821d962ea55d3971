import { describe, expect, it } from 'vitest';
import { metres, PointGrid } from '../../src/local-index/import/point-grid.js';

/** The grid's nearest point within a radius is the one a scan of every point finds (random points, filters, radii). */
describe('nearest point through the grid', () => {
  it('agrees with a scan of every point', () => {
    let seed = 34;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const points = Array.from({ length: 3000 }, (_, i) => ({ lat: 47 + random() * 0.2, lng: 9.4 + random() * 0.3, kind: i % 5 }));
    const grid = new PointGrid<number>();
    points.forEach((p, i) => grid.add(p.lat, p.lng, i));
    for (let q = 0; q < 400; q++) {
      const [lat, lng] = [46.98 + random() * 0.24, 9.38 + random() * 0.34];
      const radius = [100, 500, 1000, 2000][q % 4]!;
      const kind = q % 7 === 0 ? undefined : q % 5;
      let best: number | undefined;
      let bestDistance = Infinity;
      points.forEach((p, i) => {
        const d = metres(lat, lng, p.lat, p.lng);
        if (d <= radius && d < bestDistance && (kind === undefined || p.kind === kind)) [best, bestDistance] = [i, d];
      });
      const found = grid.nearest(lat, lng, radius, kind === undefined ? undefined : (i) => points[i]!.kind === kind);
      expect(found?.value, `query ${q}`).toBe(best);
    }
  });
});
