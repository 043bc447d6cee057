// Multi-document transactions in the stand-in, driven by the real driver and Mongoose. These
// always start their own stand-in (whatever MONGODB_URI says): CI's MongoDB for this package is a
// standalone server, which has no transactions, and some of what is checked here is the stand-in's
// own (transactions run one at a time: writes outside one wait for it, a second one gets a
// retryable WriteConflict; the lifetime limit is an option; persistence).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { deserialize, serialize, UUID, type Document } from 'bson';
import { MongoClient, MongoServerError, type Db } from 'mongodb';
import mongoose, { Schema } from 'mongoose';
import { startMongoWireServer, type MongoWireServer } from '../src/index.js';

/** Test documents with string or number `_id`s (the default schema wants ObjectIds). */
type AnyDoc = { _id?: string | number; [field: string]: unknown };

const quiet = () => {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with whatever `promise` settled with, and says whether it settled within `ms`. */
function track<T>(promise: Promise<T>) {
  const state = { settled: false };
  const done = promise.finally(() => {
    state.settled = true;
  });
  return { state, done };
}

async function errorOf(promise: Promise<unknown>): Promise<MongoServerError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
}

describe('transactions with the driver', () => {
  let server: MongoWireServer;
  let client: MongoClient;
  let other: MongoClient;
  let db: Db;
  let dbName = 'txn0';
  let run = 0;

  beforeAll(async () => {
    server = await startMongoWireServer({ log: quiet });
    // directConnection=true: the stand-in answers as a standalone server, like mongod with it.
    client = await MongoClient.connect(`${server.uri}/?directConnection=true`);
    other = await MongoClient.connect(server.uri);
  });

  beforeEach(() => {
    dbName = `txn${++run}`;
    db = client.db(dbName);
  });

  afterAll(async () => {
    await client.close();
    await other.close();
    await server.close();
  });

  it('commit makes every write of the transaction visible', async () => {
    await db.collection<AnyDoc>('handlers').insertOne({ _id: 1, name: 'Rex', available: false });
    const session = client.startSession();
    await session.withTransaction(async () => {
      await db
        .collection<AnyDoc>('handlers')
        .updateOne({ _id: 1 }, { $set: { available: true } }, { session });
      await db
        .collection<AnyDoc>('history')
        .insertOne({ handlerId: 1, change: 'available' }, { session });
    });
    await session.endSession();
    expect(await db.collection<AnyDoc>('handlers').findOne({ _id: 1 })).toMatchObject({
      available: true,
    });
    expect(await db.collection<AnyDoc>('history').countDocuments()).toBe(1);
  });

  it('reads its own writes inside the transaction', async () => {
    const session = client.startSession();
    const seen = await session.withTransaction(async () => {
      await db.collection<AnyDoc>('c').insertOne({ _id: 'a', n: 1 }, { session });
      await db
        .collection<{ _id: string; n: number }>('c')
        .updateOne({ _id: 'a' }, { $inc: { n: 1 } }, { session });
      return db.collection<AnyDoc>('c').find({}, { session }).toArray();
    });
    await session.endSession();
    expect(seen).toEqual([{ _id: 'a', n: 2 }]);
  });

  it('a throw inside withTransaction leaves none of its writes, and the order as it was', async () => {
    const coll = db.collection<AnyDoc>('docs');
    await coll.insertMany([
      { _id: 1, v: 'one' },
      { _id: 2, v: 'two' },
      { _id: 3, v: 'three' },
    ]);
    const session = client.startSession();
    const failed = session.withTransaction(async () => {
      await coll.insertOne({ _id: 4, v: 'four' }, { session });
      await coll.updateOne({ _id: 1 }, { $set: { v: 'changed' } }, { session });
      await coll.deleteOne({ _id: 2 }, { session });
      await db.collection<AnyDoc>('created-inside').insertOne({ x: 1 }, { session });
      await coll.createIndex({ v: 1 }, { session });
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    await session.endSession();
    expect(await coll.find().toArray()).toEqual([
      { _id: 1, v: 'one' },
      { _id: 2, v: 'two' },
      { _id: 3, v: 'three' },
    ]);
    const names = (await db.listCollections().toArray()).map((c) => c.name);
    expect(names).toEqual(['docs']);
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('a duplicate key inside undoes the earlier writes of the transaction', async () => {
    const coll = db.collection<AnyDoc>('accounts');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertOne({ _id: 1, email: 'taken@example.org' });
    const session = client.startSession();
    const err = await errorOf(
      session.withTransaction(async () => {
        await coll.insertOne({ _id: 2, email: 'new@example.org' }, { session });
        await coll.updateOne({ _id: 1 }, { $set: { note: 'touched' } }, { session });
        await coll.insertOne({ _id: 3, email: 'taken@example.org' }, { session });
      }),
    );
    await session.endSession();
    expect(err.code).toBe(11000);
    expect(await coll.find().toArray()).toEqual([{ _id: 1, email: 'taken@example.org' }]);
    // The unique index forgot the undone insert's key too.
    await coll.insertOne({ _id: 4, email: 'new@example.org' });
  });

  it('a failed statement aborts the transaction, as mongod does', async () => {
    const coll = db.collection<AnyDoc>('c');
    await coll.createIndex({ k: 1 }, { unique: true });
    await coll.insertOne({ k: 1 });
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ k: 2 }, { session });
    expect((await errorOf(coll.insertOne({ k: 1 }, { session }))).code).toBe(11000);
    const next = await errorOf(coll.insertOne({ k: 3 }, { session }));
    expect(next.code).toBe(251);
    expect(next.hasErrorLabel('TransientTransactionError')).toBe(true);
    await session.abortTransaction(); // answered NoSuchTransaction, which the driver ignores
    await session.endSession();
    expect(await coll.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ k: 1 }]);
  });

  it('a read outside the transaction runs at once and sees only committed data', async () => {
    const coll = db.collection<AnyDoc>('c');
    await coll.insertMany([
      { _id: 'kept', n: 1 },
      { _id: 'deleted', n: 1 },
    ]);
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 'inside' }, { session });
    await coll.updateOne({ _id: 'kept' }, { $set: { n: 2 } }, { session });
    await coll.deleteOne({ _id: 'deleted' }, { session });
    await db.collection<AnyDoc>('new').insertOne({ _id: 'x' }, { session });
    // Another client, and this client without the session, while the transaction is open:
    const committed = [
      { _id: 'kept', n: 1 },
      { _id: 'deleted', n: 1 },
    ];
    expect(await other.db(dbName).collection('c').find().toArray()).toEqual(committed);
    expect(await coll.find().toArray()).toEqual(committed);
    expect(await coll.countDocuments({ n: 2 })).toBe(0);
    expect(await coll.aggregate([{ $group: { _id: null, n: { $sum: '$n' } } }]).toArray()).toEqual([
      { _id: null, n: 2 },
    ]);
    expect((await db.listCollections().toArray()).map((c) => c.name)).toEqual(['c']);
    // ... while the transaction still reads its own writes.
    expect(await coll.find({}, { session }).toArray()).toEqual([
      { _id: 'kept', n: 2 },
      { _id: 'inside' },
    ]);
    await session.commitTransaction();
    await session.endSession();
    expect(await other.db(dbName).collection('c').find().toArray()).toEqual([
      { _id: 'kept', n: 2 },
      { _id: 'inside' },
    ]);
  });

  it('reads outside leave the transaction intact, unique index entries included', async () => {
    const coll = db.collection<AnyDoc>('accounts');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertMany([
      { _id: 1, email: 'a@example.org' },
      { _id: 2, email: 'b@example.org' },
    ]);
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 3, email: 'c@example.org' }, { session });
    await coll.updateOne({ _id: 1 }, { $set: { email: 'a2@example.org' } }, { session });
    await coll.deleteOne({ _id: 2 }, { session });
    for (let i = 0; i < 3; i++) {
      expect(await other.db(dbName).collection('accounts').countDocuments()).toBe(2);
    }
    expect(await coll.find({}, { session }).toArray()).toEqual([
      { _id: 1, email: 'a2@example.org' },
      { _id: 3, email: 'c@example.org' },
    ]);
    // The index still holds the transaction's keys: its own duplicate is refused ...
    expect((await errorOf(coll.insertOne({ email: 'c@example.org' }, { session }))).code).toBe(
      11000,
    );
    await session.abortTransaction();
    await session.endSession();
    // ... and after the abort it holds the committed ones again.
    expect(await coll.find().toArray()).toEqual([
      { _id: 1, email: 'a@example.org' },
      { _id: 2, email: 'b@example.org' },
    ]);
    expect((await errorOf(coll.insertOne({ email: 'b@example.org' }))).code).toBe(11000);
    await coll.insertOne({ email: 'c@example.org' });
    await coll.insertOne({ email: 'a2@example.org' });
  });

  it('a write outside the transaction waits for the commit and loses no update', async () => {
    const coll = db.collection<{ _id: string; n: number }>('counters');
    await coll.insertOne({ _id: 'c', n: 0 });
    const session = client.startSession();
    session.startTransaction();
    await coll.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { session });
    const outside = track(
      other
        .db(dbName)
        .collection<{ _id: string; n: number }>('counters')
        .updateOne({ _id: 'c' }, { $inc: { n: 10 } }),
    );
    await sleep(30); // well inside WRITE_WAIT_MS (200 ms): room for a stall before the next step
    expect(outside.state.settled).toBe(false);
    await session.commitTransaction();
    await session.endSession();
    await outside.done;
    expect(await coll.findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 11 });
  });

  it('a write outside a transaction that aborts applies to the committed state', async () => {
    const coll = db.collection<AnyDoc>('c');
    await coll.insertOne({ _id: 'before' });
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 'inside' }, { session });
    await coll.deleteOne({ _id: 'before' }, { session });
    const write = track(other.db(dbName).collection<AnyDoc>('c').insertOne({ _id: 'outside' }));
    await sleep(30); // well inside WRITE_WAIT_MS (200 ms): room for a stall before the next step
    expect(write.state.settled).toBe(false);
    await session.abortTransaction();
    await session.endSession();
    await write.done;
    expect(await coll.find().toArray()).toEqual([{ _id: 'before' }, { _id: 'outside' }]);
  });

  it('a write outside does not wait for a transaction longer than 200 ms: it aborts it', async () => {
    const coll = db.collection<AnyDoc>('c');
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 'inside' }, { session });
    const started = Date.now();
    await other.db(dbName).collection<AnyDoc>('c').insertOne({ _id: 'outside' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const err = await errorOf(coll.insertOne({ _id: 'late' }, { session }));
    expect(err.code).toBe(251);
    expect(err.hasErrorLabel('TransientTransactionError')).toBe(true);
    await session.abortTransaction();
    await session.endSession();
    expect(await coll.find().toArray()).toEqual([{ _id: 'outside' }]);
  });

  it('a second transaction waits briefly, then gets a retryable WriteConflict', async () => {
    const coll = db.collection<AnyDoc>('c');
    const first = client.startSession();
    const second = client.startSession();
    first.startTransaction();
    await coll.insertOne({ _id: 'first' }, { session: first });
    second.startTransaction();
    const err = await errorOf(coll.insertOne({ _id: 'second' }, { session: second }));
    expect(err.code).toBe(112);
    expect(err.codeName).toBe('WriteConflict');
    expect(err.hasErrorLabel('TransientTransactionError')).toBe(true);
    await second.abortTransaction();
    await first.commitTransaction();
    // The next attempt of the second one goes through.
    second.startTransaction();
    await coll.insertOne({ _id: 'second' }, { session: second });
    await second.commitTransaction();
    await first.endSession();
    await second.endSession();
    expect(await coll.find().toArray()).toEqual([{ _id: 'first' }, { _id: 'second' }]);
  });

  it('serialises 20 concurrent read-modify-write transactions (withTransaction retries)', async () => {
    const counters = db.collection<{ _id: string; n: number }>('counters');
    const log = db.collection<AnyDoc>('log');
    await counters.insertOne({ _id: 'c', n: 0 });
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const session = client.startSession();
        try {
          await session.withTransaction(async () => {
            const current = await counters.findOne({ _id: 'c' }, { session });
            await sleep(Math.random() * 5); // let the others pile up behind this one
            const n = current!.n + 1;
            await counters.updateOne({ _id: 'c' }, { $set: { n } }, { session });
            await log.insertOne({ worker: i, n }, { session });
          });
        } finally {
          await session.endSession();
        }
      }),
    );
    expect(await counters.findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 20 });
    const entries = await log.find().sort({ n: 1 }).toArray();
    expect(entries.map((e) => e.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(entries.map((e) => e.worker)).size).toBe(20);
  });

  it('does not stall a client with a small pool (waiting commands hold its connections)', async () => {
    const small = await MongoClient.connect(server.uri, { maxPoolSize: 2 });
    const counters = small.db(dbName).collection<{ _id: string; n: number }>('counters');
    const outside = small.db(dbName).collection<AnyDoc>('outside');
    await counters.insertOne({ _id: 'c', n: 0 });
    const started = Date.now();
    await Promise.all([
      ...Array.from({ length: 10 }, async () => {
        const session = small.startSession();
        try {
          await session.withTransaction(async () => {
            const current = await counters.findOne({ _id: 'c' }, { session });
            await counters.updateOne({ _id: 'c' }, { $set: { n: current!.n + 1 } }, { session });
          });
        } finally {
          await session.endSession();
        }
      }),
      ...Array.from({ length: 10 }, (_, i) => outside.insertOne({ i })),
      ...Array.from({ length: 10 }, () => counters.findOne({ _id: 'c' })),
    ]);
    // With commands waiting without a bound, each stall lasted the lifetime limit (60 s).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await counters.findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 10 });
    expect(await outside.countDocuments()).toBe(10);
    await small.close();
  });

  it('a retried commit succeeds again, and the transaction writes once', async () => {
    const session = client.startSession();
    session.startTransaction();
    await db.collection<AnyDoc>('c').insertOne({ once: true }, { session });
    await session.commitTransaction();
    await session.commitTransaction(); // the driver re-sends commitTransaction with w: majority
    await session.endSession();
    expect(await db.collection<AnyDoc>('c').countDocuments()).toBe(1);
  });

  it('accepts readConcern and writeConcern on the transaction', async () => {
    const session = client.startSession();
    await session.withTransaction(
      async () => {
        await db.collection<AnyDoc>('c').insertOne({ x: 1 }, { session });
        await db.collection<AnyDoc>('c').find({}, { session }).toArray();
      },
      { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } },
    );
    await session.endSession();
    expect(await db.collection<AnyDoc>('c').countDocuments()).toBe(1);
  });

  it('refuses what MongoDB refuses inside a transaction (drop: 263)', async () => {
    const session = client.startSession();
    session.startTransaction();
    await db.collection<AnyDoc>('c').insertOne({ x: 1 }, { session });
    const err = await errorOf(db.collection<AnyDoc>('c').drop({ session }));
    expect(err.code).toBe(263);
    await session.abortTransaction();
    await session.endSession();
    expect(await db.collection<AnyDoc>('c').countDocuments()).toBe(0);
  });

  it('a cursor opened in an aborted transaction is gone', async () => {
    await db.collection<AnyDoc>('c').insertMany(Array.from({ length: 5 }, (_, i) => ({ i })));
    const session = client.startSession();
    session.startTransaction();
    await db.collection<AnyDoc>('c').insertOne({ i: 99 }, { session });
    const cursor = db.collection<AnyDoc>('c').find({}, { session, batchSize: 2 });
    await cursor.next();
    await session.abortTransaction();
    expect((await errorOf(cursor.toArray())).code).toBe(43); // CursorNotFound
    await session.endSession();
  });
});

describe('transaction lifetime and connections', () => {
  const lines: string[] = [];
  let server: MongoWireServer;
  let client: MongoClient;
  let other: MongoClient;

  beforeAll(async () => {
    server = await startMongoWireServer({
      transactionLifetimeLimitSeconds: 0.4,
      log: (line) => lines.push(line),
    });
    client = await MongoClient.connect(server.uri);
    other = await MongoClient.connect(server.uri);
  });

  afterEach(() => {
    lines.length = 0;
  });

  afterAll(async () => {
    await client.close();
    await other.close();
    await server.close();
  });

  it('aborts a transaction open longer than the lifetime limit; its session is told so', async () => {
    const coll = client.db('life').collection<AnyDoc>('c');
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 'abandoned' }, { session });
    await sleep(600);
    expect(lines.some((l) => /aborted transaction .* lifetime limit of 400 ms/.test(l))).toBe(true);
    const err = await errorOf(coll.insertOne({ _id: 'late' }, { session }));
    expect(err.code).toBe(251);
    expect(err.codeName).toBe('NoSuchTransaction');
    expect(err.hasErrorLabel('TransientTransactionError')).toBe(true);
    const commit = await errorOf(session.commitTransaction());
    expect(commit.code).toBe(251);
    await session.endSession();
    expect(await coll.countDocuments()).toBe(0);
  });

  it('withTransaction retries after an expiry and then commits', async () => {
    const coll = client.db('life').collection<AnyDoc>('retry');
    const session = client.startSession();
    let attempts = 0;
    await session.withTransaction(async () => {
      attempts += 1;
      await coll.insertOne({ attempt: attempts }, { session });
      if (attempts === 1) await sleep(600); // outlives the limit: the next statement is refused
      await coll.insertOne({ second: attempts }, { session });
    });
    await session.endSession();
    expect(attempts).toBe(2);
    expect(await coll.find({}, { projection: { _id: 0 } }).toArray()).toEqual([
      { attempt: 2 },
      { second: 2 },
    ]);
  });

  it('aborts the transaction of a connection that closes', async () => {
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const reply = await rawCommand(socket, {
      insert: 'c',
      documents: [{ _id: 'raw' }],
      lsid: { id: new UUID() },
      txnNumber: 1,
      startTransaction: true,
      autocommit: false,
      $db: 'gone',
    });
    expect(reply).toMatchObject({ n: 1, ok: 1 });
    const write = track(other.db('gone').collection<AnyDoc>('c').insertOne({ _id: 'outside' }));
    await sleep(30); // well inside WRITE_WAIT_MS (200 ms): room for a stall before the next step
    expect(write.state.settled).toBe(false);
    socket.destroy();
    await write.done;
    expect(await other.db('gone').collection('c').find().toArray()).toEqual([{ _id: 'outside' }]);
    expect(
      lines.some((l) => /aborted transaction 1 because its connection \d+ closed/.test(l)),
    ).toBe(true);
  });
});

describe('transactions with Mongoose', () => {
  interface Handler {
    name: string;
    email: string;
    available: boolean;
  }
  interface Change {
    handler: string;
    what: string;
  }

  let server: MongoWireServer;
  let conn: mongoose.Connection;
  let Handlers: mongoose.Model<Handler>;
  let Changes: mongoose.Model<Change>;

  beforeAll(async () => {
    server = await startMongoWireServer({ log: quiet });
    conn = await mongoose.createConnection(server.uri, { dbName: 'directory' }).asPromise();
    Handlers = conn.model<Handler>(
      'Handler',
      new Schema<Handler>({
        name: { type: String, required: true },
        email: { type: String, required: true, unique: true },
        available: { type: Boolean, default: false },
      }),
    );
    Changes = conn.model<Change>('Change', new Schema<Change>({ handler: String, what: String }));
    await Handlers.init();
    await Changes.init();
  });

  beforeEach(async () => {
    await Handlers.deleteMany({});
    await Changes.deleteMany({});
  });

  afterAll(async () => {
    await conn.close();
    await server.close();
  });

  it('connection.transaction commits the write and its history entry together', async () => {
    await conn.transaction(async (session) => {
      const [handler] = await Handlers.create([{ name: 'Anna', email: 'anna@example.org' }], {
        session,
      });
      await Handlers.updateOne({ _id: handler!._id }, { available: true }, { session });
      await Changes.create([{ handler: 'Anna', what: 'created, available' }], { session });
    });
    expect(await Handlers.find({}, { _id: 0, name: 1, available: 1 }).lean()).toEqual([
      { name: 'Anna', available: true },
    ]);
    expect(await Changes.countDocuments()).toBe(1);
  });

  it('a throw inside connection.transaction leaves nothing', async () => {
    await expect(
      conn.transaction(async (session) => {
        await Handlers.create([{ name: 'Ben', email: 'ben@example.org' }], { session });
        await Changes.create([{ handler: 'Ben', what: 'created' }], { session });
        throw new Error('rejected by a rule');
      }),
    ).rejects.toThrow('rejected by a rule');
    expect(await Handlers.countDocuments()).toBe(0);
    expect(await Changes.countDocuments()).toBe(0);
  });

  it('a duplicate email inside undoes the history entry written before it', async () => {
    await Handlers.create({ name: 'Cleo', email: 'cleo@example.org' });
    const err = await conn
      .transaction(async (session) => {
        await Changes.create([{ handler: 'Cleo 2', what: 'created' }], { session });
        const doc = new Handlers({ name: 'Cleo 2', email: 'cleo@example.org' });
        await doc.save({ session });
      })
      .catch((e: unknown) => e);
    expect((err as { code?: number }).code).toBe(11000);
    expect(await Changes.countDocuments()).toBe(0);
    expect(await Handlers.countDocuments()).toBe(1);
  });
});

describe('transactions and persistence', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mongo-wire-server-txn-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('saves only committed state', async () => {
    const persistPath = join(dir, 'data.json');
    const server = await startMongoWireServer({ persistPath, log: quiet });
    const client = await MongoClient.connect(server.uri);
    const coll = client.db('p').collection<AnyDoc>('c');

    const committed = client.startSession();
    await committed.withTransaction(async () => {
      await coll.insertOne({ _id: 'committed' }, { session: committed });
    });
    await committed.endSession();
    let text = '';
    for (let i = 0; i < 40 && !text.includes('committed'); i++) {
      await sleep(50);
      text = await readFile(persistPath, 'utf8').catch(() => '');
    }
    expect(text).toContain('committed');

    const open = client.startSession();
    open.startTransaction();
    await coll.insertOne({ _id: 'uncommitted' }, { session: open });
    await sleep(400); // well past the 100 ms save delay
    expect(await readFile(persistPath, 'utf8')).not.toContain('uncommitted');
    // Closing the server with the transaction open undoes it before the final save.
    await client.close(true);
    await server.close();
    expect(await readFile(persistPath, 'utf8')).not.toContain('uncommitted');

    const again = await startMongoWireServer({ persistPath, log: quiet });
    const client2 = await MongoClient.connect(again.uri);
    expect(await client2.db('p').collection<AnyDoc>('c').find().toArray()).toEqual([
      { _id: 'committed' },
    ]);
    await client2.close();
    await again.close();
  });
});

/** Sends one OP_MSG command on a raw socket and returns the reply's body. */
function rawCommand(socket: Socket, command: Document): Promise<Document> {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), Buffer.from(serialize(command))]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + body.length, 0);
  header.writeInt32LE(1, 4);
  header.writeInt32LE(2013, 12); // OP_MSG
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
        socket.off('data', onData);
        resolve(deserialize(buffered.subarray(21, buffered.readInt32LE(0))));
      }
    };
    socket.on('data', onData);
    socket.write(Buffer.concat([header, body]));
  });
}
