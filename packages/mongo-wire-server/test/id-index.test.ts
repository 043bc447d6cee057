// The `_id` index: finds, counts, updates, deletes, findAndModify and a first $match that name
// their documents by `_id` (equality, $eq, $in, beside other conditions or in a top-level $and)
// read them through the collection's map by canonical _id instead of testing every document.
// Whatever changes the documents — inserts, updates, deletes, a transaction's abort, reads
// outside an open transaction — the lookup must answer as a scan would. These run on their own
// stand-in (the transactions need one; everything else here holds on MongoDB too).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Long, MongoClient, ObjectId, type Collection, type Db } from 'mongodb';
import { startMongoWireServer, type MongoWireServer } from '../src/index.js';
import type { Doc } from '../src/errors.js';
import { Store } from '../src/storage/store.js';
import type { UndoEntry } from '../src/storage/undo-log.js';

type Item = { _id: ObjectId | string | number; n: number; tag?: string };

let server: MongoWireServer;
let client: MongoClient;
let other: MongoClient;
let db: Db;
let run = 0;

beforeAll(async () => {
  server = await startMongoWireServer({ log: () => {} });
  client = await MongoClient.connect(server.uri);
  other = await MongoClient.connect(server.uri);
});

afterAll(async () => {
  await client.close();
  await other.close();
  await server.close();
});

beforeEach(() => {
  db = client.db(`ididx${++run}`);
});

const items = (count: number, from = 0): Item[] =>
  Array.from({ length: count }, (_, i) => ({ _id: new ObjectId(), n: from + i }));

const ns = (docs: Array<{ n: number }>) => docs.map((d) => d.n);

describe('lookups by _id', () => {
  let coll: Collection<Item>;
  let docs: Item[];

  beforeEach(async () => {
    coll = db.collection<Item>('items');
    docs = items(50);
    await coll.insertMany(docs);
  });

  it('finds the one document of an equality, $eq or $in, with the other conditions still applied', async () => {
    const [a, b, c] = [docs[7]!, docs[31]!, docs[42]!];
    expect(await coll.findOne({ _id: a._id })).toEqual(a);
    expect(await coll.findOne({ _id: { $eq: b._id } })).toEqual(b);
    expect(await coll.findOne({ _id: a._id, n: 8 })).toBeNull();
    expect(await coll.findOne({ $and: [{ n: { $gte: 0 } }, { _id: c._id }] })).toEqual(c);
    expect(await coll.findOne({ _id: new ObjectId() })).toBeNull();
    // $in: each once, in _id order (an index scan's), ids that name nothing skipped.
    const found = await coll
      .find({ _id: { $in: [c._id, new ObjectId(), a._id, c._id, b._id] } })
      .toArray();
    expect(found).toEqual([a, b, c]);
    expect(await coll.find({ _id: { $in: [a._id, b._id] }, n: { $gt: 10 } }).toArray()).toEqual([
      b,
    ]);
    expect(await coll.find({ _id: { $in: [] } }).toArray()).toEqual([]);
    // The _id condition's other operators still apply.
    expect(await coll.find({ _id: { $in: [a._id, b._id], $ne: a._id } }).toArray()).toEqual([b]);
    expect(await coll.find({ _id: { $eq: a._id, $in: [b._id] } }).toArray()).toEqual([]);
    expect(await coll.countDocuments({ _id: { $in: [a._id, b._id, new ObjectId()] } })).toBe(2);
    expect(await coll.distinct('n', { _id: { $in: [b._id, a._id] } })).toEqual([7, 31]);
    expect(await coll.aggregate([{ $match: { _id: { $in: [c._id, a._id] } } }]).toArray()).toEqual([
      a,
      c,
    ]);
  });

  it('a sort, skip, limit and projection apply to what the index found', async () => {
    const picked = [docs[3]!, docs[9]!, docs[27]!];
    const ids = picked.map((d) => d._id);
    const found = await coll
      .find({ _id: { $in: ids } }, { projection: { _id: 0, n: 1 } })
      .sort({ n: -1 })
      .skip(1)
      .limit(1)
      .toArray();
    expect(found).toEqual([{ n: 9 }]);
  });

  it('ids of other types: text, and numbers equal as BSON values (1, 1.0 and NumberLong(1))', async () => {
    const mixed = db.collection<Item>('mixed');
    await mixed.insertMany([
      { _id: 'a', n: 1 },
      { _id: 2, n: 2 },
      { _id: 2.5, n: 3 },
    ]);
    expect(await mixed.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
    expect(await mixed.findOne({ _id: Long.fromNumber(2) })).toEqual({
      _id: 2,
      n: 2,
    });
    expect(ns(await mixed.find({ _id: { $in: [2.5, 'a', 'b'] } }).toArray())).toEqual([3, 1]);
    // Neither an index lookup nor a match: a regular expression and a missing _id.
    expect(ns(await mixed.find({ _id: { $in: [/^a/, 2] } }).toArray())).toEqual([1, 2]);
    expect(await mixed.findOne({ _id: null as unknown as string })).toBeNull();
  });

  it('sees updates that keep the _id, and deletes, of every kind', async () => {
    const [a, b, c, d] = [docs[1]!, docs[2]!, docs[3]!, docs[4]!];
    await coll.updateOne({ _id: a._id }, { $set: { tag: 'one' } });
    await coll.updateMany({ _id: { $in: [b._id, c._id] } }, { $inc: { n: 100 } });
    await coll.replaceOne({ _id: d._id }, { n: -4 });
    expect(
      await coll.findOneAndUpdate(
        { _id: a._id },
        { $set: { tag: 'two' } },
        { returnDocument: 'after' },
      ),
    ).toEqual({ ...a, tag: 'two' });
    expect(await coll.find({ _id: { $in: [a._id, b._id, c._id, d._id] } }).toArray()).toEqual([
      { ...a, tag: 'two' },
      { ...b, n: 102 },
      { ...c, n: 103 },
      { _id: d._id, n: -4 },
    ]);

    await coll.deleteOne({ _id: a._id });
    await coll.deleteMany({ _id: { $in: [b._id, c._id] } });
    expect(await coll.findOneAndDelete({ _id: d._id })).toEqual({ _id: d._id, n: -4 });
    expect(await coll.find({ _id: { $in: [a._id, b._id, c._id, d._id] } }).toArray()).toEqual([]);
    expect(await coll.countDocuments()).toBe(46);
    // A deleted id can be used again, and is then found.
    await coll.insertOne({ _id: b._id, n: 2000 });
    expect(await coll.findOne({ _id: b._id })).toEqual({ _id: b._id, n: 2000 });
  });

  it('an upsert by _id inserts when the id names nothing, and updates it next time', async () => {
    const id = new ObjectId();
    await coll.updateOne({ _id: id }, { $set: { n: 1 } }, { upsert: true });
    await coll.updateOne({ _id: id }, { $inc: { n: 1 } }, { upsert: true });
    expect(await coll.find({ _id: id }).toArray()).toEqual([{ _id: id, n: 2 }]);
  });
});

describe('lookups by _id and transactions', () => {
  it('inside, the transaction finds its own writes by _id; outside, the committed ones; an abort restores both', async () => {
    const coll = db.collection<Item>('items');
    const docs = items(20);
    await coll.insertMany(docs);
    const [kept, removed, changed] = [docs[0]!, docs[10]!, docs[15]!];
    const added: Item = { _id: new ObjectId(), n: 99 };
    const ids = [kept._id, removed._id, changed._id, added._id];
    const outside = other.db(db.databaseName).collection<Item>('items');

    const session = client.startSession();
    session.startTransaction();
    await coll.deleteOne({ _id: removed._id }, { session });
    await coll.updateOne({ _id: changed._id }, { $set: { tag: 'new' } }, { session });
    await coll.insertOne(added, { session });
    // The same id removed and inserted again in the transaction.
    await coll.deleteOne({ _id: kept._id }, { session });
    await coll.insertOne({ _id: kept._id, n: -1 }, { session });

    expect(await coll.find({ _id: { $in: ids } }, { session }).toArray()).toEqual([
      { _id: kept._id, n: -1 },
      { ...changed, tag: 'new' },
      added,
    ]);
    expect(await outside.find({ _id: { $in: ids } }).toArray()).toEqual([kept, removed, changed]);
    expect(await outside.findOne({ _id: added._id })).toBeNull();
    // The reads outside left the transaction's state as it was.
    expect(await coll.findOne({ _id: removed._id }, { session })).toBeNull();
    expect(await coll.findOne({ _id: kept._id }, { session })).toEqual({ _id: kept._id, n: -1 });

    await session.abortTransaction();
    await session.endSession();
    expect(await coll.find({ _id: { $in: ids } }).toArray()).toEqual([kept, removed, changed]);
    expect(await coll.findOne({ _id: added._id })).toBeNull();
    // Every document back in its place in natural order.
    expect(await coll.find().toArray()).toEqual(docs);
  });

  it('after a commit the index holds the transaction’s writes', async () => {
    const coll = db.collection<Item>('items');
    const docs = items(5);
    await coll.insertMany(docs);
    const added: Item = { _id: new ObjectId(), n: 5 };
    const session = client.startSession();
    await session.withTransaction(async () => {
      await coll.insertOne(added, { session });
      await coll.deleteOne({ _id: docs[0]!._id }, { session });
      await coll.updateOne({ _id: docs[1]!._id }, { $set: { tag: 'x' } }, { session });
    });
    await session.endSession();
    expect(await coll.findOne({ _id: docs[0]!._id })).toBeNull();
    expect(await coll.findOne({ _id: docs[1]!._id })).toEqual({ ...docs[1]!, tag: 'x' });
    expect(await coll.findOne({ _id: added._id })).toEqual(added);
    expect(ns(await coll.find().toArray())).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('50,000 documents', () => {
  const COUNT = 50_000;
  /** Generous: a shared machine; a quadratic cost would still take far longer. */
  const SLOW = 120_000;

  it(
    'are inserted in one insertMany, scanned in order, and found by _id one by one',
    async () => {
      const coll = db.collection<Item>('many');
      const docs = items(COUNT);
      await coll.insertMany(docs);
      expect(ns(await coll.find().toArray())).toEqual(docs.map((d) => d.n));
      // Spread over the collection: first, last and in between.
      for (const at of [0, 1, 12_345, 25_000, 49_998, COUNT - 1]) {
        expect(await coll.findOne({ _id: docs[at]!._id })).toEqual(docs[at]);
      }
      const every10th = docs.filter((_, i) => i % 10 === 0);
      const found = await coll
        .find({ _id: { $in: every10th.map((d) => d._id) }, n: { $lt: 25_000 } })
        .toArray();
      expect(ns(found)).toEqual(every10th.filter((d) => d.n < 25_000).map((d) => d.n));
      const some = [docs[40_000]!, docs[3]!, docs[20_000]!];
      expect(ns(await coll.find({ _id: { $in: some.map((d) => d._id) } }).toArray())).toEqual([
        3, 20_000, 40_000,
      ]);
    },
    SLOW,
  );

  it(
    'updated one by one by _id in a transaction, then deleted, and the abort puts all back in order',
    async () => {
      const coll = db.collection<Item>('many');
      const docs = items(COUNT);
      await coll.insertMany(docs);
      const session = client.startSession();
      session.startTransaction();
      for (const doc of docs.slice(0, 2_000)) {
        await coll.updateOne({ _id: doc._id }, { $set: { tag: 'changed' } }, { session });
      }
      expect(await coll.countDocuments({ tag: 'changed' }, { session })).toBe(2_000);
      await coll.deleteMany({}, { session });
      expect(await coll.countDocuments({}, { session })).toBe(0);
      // A read outside sees every document, unchanged.
      expect(await coll.findOne({ _id: docs[1_000]!._id })).toEqual(docs[1_000]);
      await session.abortTransaction();
      await session.endSession();
      expect(await coll.find().toArray()).toEqual(docs);
      expect(await coll.findOne({ _id: docs[COUNT - 1]!._id })).toEqual(docs[COUNT - 1]);
    },
    SLOW,
  );
});

describe('the store under random transactions', () => {
  /** A small deterministic generator (xorshift), so a failure repeats. */
  function random(seed: number) {
    let x = seed;
    return (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
  }

  it('an abort restores every document, its _id lookup and the natural order, after reads from outside', () => {
    const pick = random(20_260_522);
    const store = new Store();
    const coll = store.ensureCollection('db', 'c').collection;
    let nextId = 0;
    for (let i = 0; i < 200; i++) coll.insert({ _id: nextId++, v: 0 });
    for (let round = 0; round < 50; round++) {
      const committed = [...coll.all()];
      const log: UndoEntry[] = [];
      for (let step = 0; step < 40; step++) {
        store.recording(log, () => {
          const docs = coll.all();
          const kind = pick(3);
          if (kind === 0 || docs.length === 0) {
            coll.insert({ _id: nextId++, v: round });
          } else if (kind === 1) {
            const doc = docs[pick(docs.length)]!;
            coll.replace(doc, { ...doc, v: (doc.v as number) + 1 });
          } else {
            coll.remove(docs[pick(docs.length)]!);
          }
        });
        // A read outside the transaction sees the committed state, and leaves the changes.
        if (pick(4) === 0) {
          const inside = [...coll.all()];
          store.withoutChanges(log, () => {
            expect(coll.all()).toEqual(committed);
          });
          expect(coll.all()).toEqual(inside);
        }
      }
      if (pick(2) === 0) {
        store.undo(log);
        expect(coll.all()).toEqual(committed);
      }
      const ids = coll.all().map((d: Doc) => d._id);
      expect(coll.withIds(ids)).toEqual(coll.all());
      expect(coll.withIds([nextId, -1])).toEqual([]);
    }
  });
});
