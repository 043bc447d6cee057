/* global process, console, performance */
// The handler directory's floors, through the native MongoDB driver on the same server:
//   MODE=list   the public list's query, CONCURRENCY queries in flight for SECONDS (B6);
//   MODE=cursor one pass over the export's cursor (every handler by name, BATCH_SIZE per round
//               trip), as fast as the driver can read it (B7).
import { MongoClient } from 'mongodb';

const uri = process.env.MONGODB_URI;
const mode = process.env.MODE ?? 'list';
const seconds = Number(process.env.SECONDS ?? 10);
const concurrency = Number(process.env.CONCURRENCY ?? 10);
const poolSize = Number(process.env.POOL_SIZE ?? 10);
const batchSize = Number(process.env.BATCH_SIZE ?? 500);

const client = new MongoClient(uri, { maxPoolSize: poolSize });
await client.connect();
const handlers = client.db().collection('handlers');

if (mode === 'cursor') {
  const started = performance.now();
  let rows = 0;
  for await (const _doc of handlers.find({}).sort({ nameSort: 1, _id: 1 }).batchSize(batchSize)) {
    rows += 1;
  }
  const elapsed = (performance.now() - started) / 1000;
  await client.close();
  console.log(JSON.stringify({ rate: rows / elapsed, rows, seconds: elapsed }));
} else {
  const query = () => handlers.find({ available: true }).sort({ nameSort: 1, _id: 1 }).toArray();
  const expected = (await query()).length;
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const docs = await query();
        if (docs.length !== expected) {
          throw new Error(`expected ${expected} documents, got ${docs.length}`);
        }
        done += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await client.close();
  console.log(JSON.stringify({ rate: done / elapsed, queries: done, documents: expected }));
}
