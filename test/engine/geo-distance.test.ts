import { describe, expect, it } from 'vitest';
import { distanceMeters } from '../../src/engine/geo-distance.js';

describe('distanceMeters (haversine)', () => {
  it.each([
    [{ lat: 52.3731, lng: 4.8926 }, { lat: 52.3731, lng: 4.8926 }, 0, 0.001],
    [{ lat: 0, lng: 0 }, { lat: 1, lng: 0 }, 111_195, 1],
    [{ lat: 0, lng: 0 }, { lat: 0, lng: 1 }, 111_195, 1],
    // Amsterdam Dam → Rotterdam Coolsingel, about 57.4 km
    [{ lat: 52.3731, lng: 4.8926 }, { lat: 51.9225, lng: 4.4792 }, 57_400, 300],
    // at 52° N a degree of longitude is about 68.5 km
    [{ lat: 52, lng: 4 }, { lat: 52, lng: 5 }, 68_460, 100],
  ])('%o → %o ≈ %d m', (a, b, expected, tolerance) => {
    expect(Math.abs(distanceMeters(a, b) - expected)).toBeLessThanOrEqual(tolerance);
  });

  it('is symmetric', () => {
    const a = { lat: 48.8566, lng: 2.3522 };
    const b = { lat: 51.5072, lng: -0.1276 };
    expect(distanceMeters(a, b)).toBeCloseTo(distanceMeters(b, a), 6);
  });
});
