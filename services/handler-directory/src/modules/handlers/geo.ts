// Great-circle distances on the mean Earth sphere. Haversine is numerically stable for small
// distances and needs no special cases at the antimeridian or the poles: longitudes enter only
// through sin² of their half difference, so -179.9° and 179.9° are 0.2° apart.

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;

export interface Point {
  lat: number;
  lng: number;
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

export function distanceKm(a: Point, b: Point): number {
  const dLat = radians(b.lat - a.lat);
  const dLng = radians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2;
  // Rounding can push h a hair above 1 for antipodal points; asin would then be NaN.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h)));
}

/** Rounded to one decimal for display. */
export const roundKm = (km: number) => Math.round(km * 10) / 10;
