// Where the behaviour tests run. With MONGODB_URI set (CI's `mongo` service container) they run
// against real MongoDB, each file in its own database that is dropped afterwards; otherwise
// against a fresh stand-in on a random port. The assertions are the same either way: that is
// the point — they pin down real MongoDB behaviour the stand-in must reproduce.
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { startMongoWireServer } from '../src/index.js';

export interface Target {
  uri: string;
  /** Unique per test file. */
  dbName: string;
  /** A connected driver client (closed by `close`). */
  client: MongoClient;
  close(): Promise<void>;
}

export async function openTarget(tag: string): Promise<Target> {
  const dbName = `mws_${tag}_${randomBytes(4).toString('hex')}`;
  const external = process.env.MONGODB_URI;
  const server = external ? undefined : await startMongoWireServer({ log: () => {} });
  const uri = external ?? server!.uri;
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  return {
    uri,
    dbName,
    client,
    async close() {
      await client.db(dbName).dropDatabase();
      await client.close();
      await server?.close();
    },
  };
}
