import { describe, expect, it } from '@jest/globals';
import { distanceKm, EARTH_RADIUS_KM, roundKm } from '../../../src/modules/handlers/geo.js';

const BERLIN = { lat: 52.52, lng: 13.405 };
const MUNICH = { lat: 48.1351, lng: 11.582 };
const PARIS = { lat: 48.8566, lng: 2.3522 };
const LONDON = { lat: 51.5074, lng: -0.1278 };
/** 0.2° of a great circle. */
const FIFTH_DEGREE_KM = (0.2 * Math.PI * EARTH_RADIUS_KM) / 180;

describe('distanceKm (haversine, R = 6371.0088 km)', () => {
  it('matches known distances between cities', () => {
    expect(distanceKm(BERLIN, MUNICH)).toBeCloseTo(504.4, 1);
    expect(distanceKm(PARIS, LONDON)).toBeCloseTo(343.6, 1);
  });

  it('is symmetric and zero for the same point', () => {
    expect(distanceKm(MUNICH, BERLIN)).toBe(distanceKm(BERLIN, MUNICH));
    expect(distanceKm(BERLIN, BERLIN)).toBe(0);
  });

  it('treats points on either side of the antimeridian as close', () => {
    expect(distanceKm({ lat: 0, lng: 179.9 }, { lat: 0, lng: -179.9 })).toBeCloseTo(
      FIFTH_DEGREE_KM,
      6,
    );
    expect(distanceKm({ lat: -16.5, lng: 180 }, { lat: -16.5, lng: -180 })).toBeCloseTo(0, 6);
    expect(distanceKm({ lat: 65, lng: -179.5 }, { lat: 65, lng: 179.5 })).toBeLessThan(50);
  });

  it('stays correct near and at the poles', () => {
    // Across the north pole: 0.1° up to it and 0.1° down the opposite meridian.
    expect(distanceKm({ lat: 89.9, lng: 0 }, { lat: 89.9, lng: 180 })).toBeCloseTo(
      FIFTH_DEGREE_KM,
      6,
    );
    expect(distanceKm({ lat: 89.9, lng: 0 }, { lat: 89.9, lng: 90 })).toBeCloseTo(15.7254, 3);
    // At the pole every longitude is the same point.
    expect(distanceKm({ lat: 90, lng: 0 }, { lat: 90, lng: 123 })).toBeCloseTo(0, 6);
    expect(distanceKm({ lat: -90, lng: 0 }, { lat: 90, lng: 0 })).toBeCloseTo(
      Math.PI * EARTH_RADIUS_KM,
      6,
    );
  });

  it('gives half the circumference for antipodal points, never NaN', () => {
    expect(distanceKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(20015.114, 2);
    expect(distanceKm({ lat: 52.52, lng: 13.405 }, { lat: -52.52, lng: -166.595 })).toBeCloseTo(
      20015.114,
      2,
    );
  });
});

describe('roundKm', () => {
  it('rounds to one decimal', () => {
    expect(roundKm(504.416)).toBe(504.4);
    expect(roundKm(185.55)).toBe(185.6);
    expect(roundKm(0.04)).toBe(0);
  });
});
