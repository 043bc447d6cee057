// One MongoDB for the whole run, chosen like the server chooses (MONGODB_URI, a local mongod, else
// the in-memory stand-in); every test file then works in its own uniquely named database, so
// files stay isolated and run in parallel. Workers find the server in TEST_MONGODB_URI, and which
// kind it is in TEST_MONGODB_KIND.
import { openDatabase, type OpenedDatabase } from '../../src/db/open-database.js';

const holder = globalThis as { __directoryTestMongo?: OpenedDatabase };

/** `configured`, `mongodb-memory-server` or `stand-in`, as the database's description names it. */
function kindOf(database: OpenedDatabase): string {
  if (!database.embedded) return 'configured';
  return database.description.includes('stand-in') ? 'stand-in' : 'mongodb-memory-server';
}

export async function setup(): Promise<void> {
  const notes: string[] = [];
  const database = await openDatabase({
    uri: process.env.MONGODB_URI,
    log: (line) => notes.push(line),
  });
  holder.__directoryTestMongo = database;
  process.env.TEST_MONGODB_URI = database.url;
  process.env.TEST_MONGODB_KIND = kindOf(database);
  const skipped = notes.find((n) => n.startsWith('mongodb-memory-server'));
  console.log(
    `\nhandler-directory tests run on ${database.description}${skipped ? ` [${skipped}]` : ''}`,
  );
}

export async function teardown(): Promise<void> {
  await holder.__directoryTestMongo?.close();
}
