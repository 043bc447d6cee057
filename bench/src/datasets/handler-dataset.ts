// The handler directory's benchmark data set, generated from a fixed seed and written through the
// service's own Mongoose model (schema validation and the name-sort hook run for every handler).
import { openDirectoryDb } from '@dogshop/handler-directory/db/connection';
import { Random } from './random.js';

export const HANDLER_SEED = 20_261_122;

const FIRST = ['Jürgen', 'Änne', 'Björn', 'Özlem', 'Uwe', 'Sören', 'Gudrun', 'Hans-Jörg', 'Greta'];
const MORE_FIRST = ['Karl', 'Heike', 'Fritz', 'Maren', 'Ulf', 'Ida', 'Wilhelm', 'Jutta', 'Lars'];
const LAST = ['Größmann', 'Köhler', 'Weiß', 'Brückner', 'Müßig', 'Päßler', 'Ostermann', 'Übel'];
const MORE_LAST = ['Schäfer', 'Förster', 'Jäger', 'Falk', 'Wolf', 'Adler', 'Becker', 'Hahn'];
const STREETS = [
  'Forsthaus',
  'Am Jagdschloss',
  'Waldweg',
  'Heideweg',
  'Lindenallee',
  'Hauptstraße',
];
const TOWNS = ['29633 Munster', '83471 Berchtesgaden', '54595 Prüm', '01814 Bad Schandau'];
const TYPES = ['SW', 'BGS', 'HS', 'DD', 'TE'];

export interface HandlerInput {
  name: string;
  phone: string;
  address?: string;
  type?: string;
  available: boolean;
  gps?: { lat: number; lng: number };
}

export function generateHandlers(count: number, seed = HANDLER_SEED): HandlerInput[] {
  const random = new Random(seed);
  const firsts = [...FIRST, ...MORE_FIRST];
  const lasts = [...LAST, ...MORE_LAST];
  return Array.from({ length: count }, (_, i) => ({
    name: `${random.pick(firsts)} ${random.pick(lasts)} ${i + 1}`,
    phone: `+49 ${random.int(30, 9999)} ${random.int(100_000, 9_999_999)}`,
    ...(random.chance(0.85)
      ? { address: `${random.pick(STREETS)} ${random.int(1, 99)}, ${random.pick(TOWNS)}` }
      : {}),
    ...(random.chance(0.9) ? { type: random.pick(TYPES) } : {}),
    available: random.chance(0.9),
    ...(random.chance(0.8)
      ? {
          gps: {
            lat: Math.round((47.3 + random.next() * 7.7) * 1e4) / 1e4,
            lng: Math.round((5.9 + random.next() * 9.1) * 1e4) / 1e4,
          },
        }
      : {}),
  }));
}

/** Writes `count` handlers into the (empty) database named in `uri`. */
export async function loadHandlerDataset(
  uri: string,
  count: number,
): Promise<{ handlers: number; available: number; seconds: number }> {
  const started = Date.now();
  const db = await openDirectoryDb(uri);
  try {
    await db.handlers.deleteMany({});
    const handlers = generateHandlers(count);
    for (let i = 0; i < handlers.length; i += 1_000) {
      await db.handlers.insertMany(handlers.slice(i, i + 1_000));
    }
    return {
      handlers: await db.handlers.countDocuments({}),
      available: await db.handlers.countDocuments({ available: true }),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await db.close();
  }
}
