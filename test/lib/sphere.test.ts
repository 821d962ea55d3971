import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capBoxes, EARTH_RADIUS_M, haversineMeters, planarLowerBoundMeters } from '../../src/lib/sphere.js';

const RAD = Math.PI / 180;

/** The point `distance` metres from `from` along `bearing` (radians), on the sphere. */
function destination(from: { lat: number; lng: number }, distance: number, bearing: number) {
  const d = distance / EARTH_RADIUS_M;
  const lat1 = from.lat * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lng2 = from.lng * RAD + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  const lng = ((((lng2 / RAD + 180) % 360) + 360) % 360) - 180;
  return { lat: lat2 / RAD, lng };
}

const center = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) });
const radius = fc.double({ min: 1, max: 5000, noNaN: true });
const inside = (p: { lat: number; lng: number }, b: { south: number; north: number; west: number; east: number }) =>
  p.lat >= b.south - 1e-9 && p.lat <= b.north + 1e-9 && p.lng >= b.west - 1e-9 && p.lng <= b.east + 1e-9;

describe('sphere: the rectangles of a circle and the planar bound (reverse look-up)', () => {
  it('every point within the radius lies in one of the rectangles, poles and antimeridian included', () => {
    fc.assert(
      fc.property(center, radius, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), (c, r, share, bearing) => {
        const p = destination(c, r * share * 0.999, bearing);
        // destination() loses centimetres next to a pole (asin near 1): what counts is the point's own distance.
        fc.pre(haversineMeters(c, p) < r);
        expect(capBoxes(c, r).some((b) => inside(p, b))).toBe(true);
      }),
      { numRuns: 2000, seed: 35 },
    );
    // The cases by name: across the antimeridian, over both poles.
    expect(capBoxes({ lat: -16.5, lng: 179.99 }, 5000)).toHaveLength(2);
    expect(capBoxes({ lat: 89.99, lng: 10 }, 5000)).toEqual([{ south: expect.any(Number), north: 90, west: -180, east: 180 }]);
    expect(capBoxes({ lat: -90, lng: 0 }, 100)[0]).toMatchObject({ south: -90, west: -180, east: 180 });
  });

  it('no point within the radius is nearer than the planar bound says', () => {
    fc.assert(
      fc.property(center, radius, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), (c, r, share, bearing) => {
        const p = destination(c, r * share * 0.999, bearing);
        fc.pre(haversineMeters(c, p) < r);
        const dLng = Math.abs(p.lng - c.lng) > 180 ? 360 - Math.abs(p.lng - c.lng) : Math.abs(p.lng - c.lng);
        const planar = Math.hypot(p.lat - c.lat, dLng);
        expect(planarLowerBoundMeters(c, r, planar)).toBeLessThanOrEqual(haversineMeters(c, p) + 1e-6);
      }),
      { numRuns: 2000, seed: 35 },
    );
  });

  it('measures the great circle across the antimeridian and at the poles', () => {
    expect(haversineMeters({ lat: 0, lng: 179.99 }, { lat: 0, lng: -179.99 })).toBeCloseTo(2223.9, 0);
    expect(haversineMeters({ lat: 90, lng: 0 }, { lat: 90, lng: 135 })).toBeCloseTo(0, 6);
  });
});
