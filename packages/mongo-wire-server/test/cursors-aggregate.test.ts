// Cursors (batches + getMore) and aggregation pipelines through the official driver.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MongoClient, type Collection, type CommandStartedEvent, type Db } from 'mongodb';
import { openTarget, type Target } from './target.js';

interface Item {
  i: number;
  category: string;
  price: number;
}

let target: Target;
let monitored: MongoClient;
let db: Db;
let items: Collection<Item>;
const started: CommandStartedEvent[] = [];
const CATEGORIES = ['toys', 'food', 'beds', 'leads'];

beforeAll(async () => {
  target = await openTarget('cursors');
  // A second client that records every command it sends, to see getMore round trips.
  monitored = new MongoClient(target.uri, { monitorCommands: true });
  monitored.on('commandStarted', (e) => started.push(e));
  await monitored.connect();
  db = monitored.db(target.dbName);
  items = db.collection<Item>('items');
  await items.insertMany(
    Array.from({ length: 1000 }, (_, i) => ({
      i,
      category: CATEGORIES[i % 4]!,
      price: (i % 10) + 1,
    })),
  );
});

afterAll(async () => {
  await monitored.close();
  await target.close();
});

const commandsNamed = (name: string) => started.filter((e) => e.commandName === name).length;

describe('cursors', () => {
  it('returns all 1000 documents exactly once, in order, through getMore with batchSize 50', async () => {
    const getMoresBefore = commandsNamed('getMore');
    const seen: number[] = [];
    for await (const doc of items.find({}, { batchSize: 50 }).sort({ i: 1 })) seen.push(doc.i);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    // 50 in the first batch, the rest in getMores of 50.
    expect(commandsNamed('getMore') - getMoresBefore).toBeGreaterThanOrEqual(19);
  });

  it('returns every document with the default batch size', async () => {
    const all = await items.find({}).toArray();
    expect(all).toHaveLength(1000);
    expect(new Set(all.map((d) => d.i)).size).toBe(1000);
  });

  it('respects limit across batches', async () => {
    const docs = await items.find({}, { batchSize: 50 }).sort({ i: -1 }).limit(120).toArray();
    expect(docs).toHaveLength(120);
    expect(docs[0]?.i).toBe(999);
    expect(docs[119]?.i).toBe(880);
  });

  it('returns results larger than 16 MB in total by splitting them into several batches', async () => {
    const big = db.collection('big');
    const payload = 'x'.repeat(1024 * 1024);
    await big.insertMany(Array.from({ length: 24 }, (_, n) => ({ n, payload })));
    const docs = await big.find({}).sort({ n: 1 }).toArray();
    expect(docs.map((d) => d.n)).toEqual(Array.from({ length: 24 }, (_, n) => n));
    expect(docs.every((d) => d.payload === payload)).toBe(true);
  });

  it('can be closed before exhaustion and another cursor still works', async () => {
    const cursor = items.find({}, { batchSize: 10 });
    expect((await cursor.next())?.i).toBeDefined();
    await cursor.close();
    expect(await items.countDocuments({ category: 'toys' })).toBe(250);
  });
});

describe('aggregate', () => {
  it('runs $match, $group and $sort', async () => {
    const result = await items
      .aggregate<{ _id: string; count: number; total: number }>([
        { $match: { price: { $gte: 5 } } },
        { $group: { _id: '$category', count: { $sum: 1 }, total: { $sum: '$price' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(result.map((r) => r._id)).toEqual(['beds', 'food', 'leads', 'toys']);
    // price 5..10 is 6 of every 10 values; each category holds 250 documents.
    expect(result.reduce((s, r) => s + r.count, 0)).toBe(600);
    const toys = result.find((r) => r._id === 'toys');
    // toys are i % 4 === 0, so price = (i % 10) + 1 cycles through 1,5,9,3,7: 5, 9 and 7 qualify.
    expect(toys?.count).toBe(150);
    expect(toys?.total).toBe(50 * (5 + 9 + 7));
  });

  it('runs $project, $skip, $limit and $count', async () => {
    const page = await items
      .aggregate([
        { $sort: { i: 1 } },
        { $skip: 10 },
        { $limit: 3 },
        { $project: { _id: 0, i: 1, double: { $multiply: ['$price', 2] } } },
      ])
      .toArray();
    expect(page).toEqual([
      { i: 10, double: 2 },
      { i: 11, double: 4 },
      { i: 12, double: 6 },
    ]);
    const [counted] = await items
      .aggregate([{ $match: { category: 'food' } }, { $count: 'n' }])
      .toArray();
    expect(counted).toEqual({ n: 250 });
  });

  it('returns large aggregation results through getMore', async () => {
    const all = await items.aggregate([{ $sort: { i: -1 } }], { batchSize: 100 }).toArray();
    expect(all).toHaveLength(1000);
    expect(all[0]?.i).toBe(999);
  });

  it('joins another collection with $lookup', async () => {
    await db
      .collection('categories')
      .insertMany(CATEGORIES.map((name) => ({ name, label: name.toUpperCase() })));
    const [joined] = await items
      .aggregate<{ i: number; cat: Array<{ label: string }> }>([
        { $match: { i: 2 } },
        {
          $lookup: { from: 'categories', localField: 'category', foreignField: 'name', as: 'cat' },
        },
      ])
      .toArray();
    expect(joined?.cat.map((c) => c.label)).toEqual(['BEDS']);
  });

  it('does not change stored documents', async () => {
    await items
      .aggregate([{ $match: { i: 1 } }, { $addFields: { price: 0, extra: true } }])
      .toArray();
    const stored = await items.findOne({ i: 1 }, { projection: { _id: 0 } });
    expect(stored).toEqual({ i: 1, category: 'food', price: 2 });
  });
});
