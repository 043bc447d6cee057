// Example values for the OpenAPI documents (request and response examples). Typed against the
// contracts, so an example that no longer fits its schema fails the build.
import type { Handler, PublicHandler } from './handlers.js';

export const EXAMPLE_ADMIN_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2NjVmMWMyYWI0ZDNlOGExYzJmMGIwMDEiLCJyb2xlIjoiYWRtaW4ifQ.c2lnbmF0dXJl';

export const handlerExample: Handler = {
  _id: '665f1c2ab4d3e8a1c2f0b123',
  name: 'Anna Bergmann',
  address: 'Am Forsthaus 5, 29614 Soltau',
  phone: '+49 5191 987654',
  type: 'SW',
  available: true,
  gps: { lat: 52.9866, lng: 9.8429 },
  createdAt: '2026-02-11T07:45:00.000Z',
  updatedAt: '2026-03-02T16:10:27.000Z',
};

export const otherHandlerExample: Handler = {
  _id: '665f1c2ab4d3e8a1c2f0b124',
  name: 'Jörg Östermann',
  phone: '+49 171 2345678',
  available: false,
  createdAt: '2026-02-12T10:00:00.000Z',
  updatedAt: '2026-02-12T10:00:00.000Z',
};

export const nearestHandlerExample: PublicHandler = { ...handlerExample, distance_km: 245.3 };
