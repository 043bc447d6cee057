// One MongoDB for the whole run, chosen like the server chooses (MONGODB_URI, a local mongod, else
// the in-memory stand-in); every test file then works in its own uniquely named database, so
// files stay isolated and run in parallel. Workers find the server in TEST_MONGODB_URI.
import { openMongoTarget, type MongoTarget } from '../../src/db/mongo-target.js';

const holder = globalThis as { __directoryTestMongo?: MongoTarget };

export async function setup(): Promise<void> {
  const notes: string[] = [];
  const target = await openMongoTarget({
    uri: process.env.MONGODB_URI,
    log: (line) => notes.push(line),
  });
  holder.__directoryTestMongo = target;
  process.env.TEST_MONGODB_URI = target.uri;
  process.env.TEST_MONGODB_KIND = target.kind;
  const skipped = notes.find((n) => n.startsWith('mongodb-memory-server'));
  console.log(
    `\nhandler-directory tests run on ${target.description}${skipped ? ` [${skipped}]` : ''}`,
  );
}

export async function teardown(): Promise<void> {
  await holder.__directoryTestMongo?.close();
}
