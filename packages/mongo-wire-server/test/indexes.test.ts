// Index and collection management, above all unique indexes and duplicate-key errors (code
// 11000 with keyPattern/keyValue), which application code relies on to detect conflicts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MongoBulkWriteError, MongoServerError, type Db } from 'mongodb';
import { openTarget, type Target } from './target.js';

let target: Target;
let db: Db;
let seq = 0;
const fresh = () => db.collection(`c${++seq}_${Math.random().toString(36).slice(2, 6)}`);

beforeAll(async () => {
  target = await openTarget('indexes');
  db = target.client.db(target.dbName);
});

afterAll(async () => {
  await target.close();
});

async function rejection(p: Promise<unknown>): Promise<MongoServerError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
}

describe('unique indexes', () => {
  it('rejects a duplicate insert with E11000, keyPattern and keyValue', async () => {
    const users = fresh();
    expect(await users.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    await users.insertOne({ email: 'a@example.com' });
    const err = await rejection(users.insertOne({ email: 'a@example.com' }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: 'a@example.com' });
    expect(err.message).toContain('E11000 duplicate key error');
    expect(err.message).toContain('email_1');
    expect(await users.countDocuments({})).toBe(1);
  });

  it('always enforces _id uniqueness', async () => {
    const c = fresh();
    await c.insertOne({ _id: 'same' as never, v: 1 });
    const err = await rejection(c.insertOne({ _id: 'same' as never, v: 2 }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ _id: 'same' });
  });

  it('stops an ordered insertMany at the duplicate', async () => {
    const c = fresh();
    await c.createIndex({ k: 1 }, { unique: true });
    const err = await c
      .insertMany([{ k: 1 }, { k: 2 }, { k: 1 }, { k: 3 }])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    expect((err as MongoBulkWriteError).code).toBe(11000);
    expect((err as MongoBulkWriteError).insertedCount).toBe(2);
    expect(await c.countDocuments({})).toBe(2);
  });

  it('continues an unordered insertMany past the duplicate', async () => {
    const c = fresh();
    await c.createIndex({ k: 1 }, { unique: true });
    const err = await c
      .insertMany([{ k: 1 }, { k: 1 }, { k: 2 }, { k: 3 }], { ordered: false })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    const bulk = err as MongoBulkWriteError;
    expect(bulk.insertedCount).toBe(3);
    expect(bulk.writeErrors).toHaveLength(1);
    expect(await c.countDocuments({})).toBe(3);
  });

  it('rejects an update that would create a duplicate', async () => {
    const c = fresh();
    await c.createIndex({ name: 1 }, { unique: true });
    await c.insertMany([{ name: 'x' }, { name: 'y' }]);
    const err = await rejection(c.updateOne({ name: 'y' }, { $set: { name: 'x' } }));
    expect(err.code).toBe(11000);
    expect(await c.countDocuments({ name: 'y' })).toBe(1);
  });

  it('enforces compound unique keys on the combination only', async () => {
    const c = fresh();
    expect(await c.createIndex({ shop: 1, sku: 1 }, { unique: true })).toBe('shop_1_sku_1');
    await c.insertMany([
      { shop: 1, sku: 'a' },
      { shop: 1, sku: 'b' },
      { shop: 2, sku: 'a' },
    ]);
    const err = await rejection(c.insertOne({ shop: 1, sku: 'a' }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ shop: 1, sku: 'a' });
  });

  it('treats a missing field as null, unless the index is sparse', async () => {
    const dense = fresh();
    await dense.createIndex({ code: 1 }, { unique: true });
    await dense.insertOne({ other: 1 });
    expect((await rejection(dense.insertOne({ other: 2 }))).code).toBe(11000);

    const sparse = fresh();
    await sparse.createIndex({ code: 1 }, { unique: true, sparse: true });
    await sparse.insertMany([{ other: 1 }, { other: 2 }]);
    expect(await sparse.countDocuments({})).toBe(2);
  });

  it('fails to build a unique index over existing duplicates, leaving no index behind', async () => {
    const c = fresh();
    await c.insertMany([{ name: 'dup' }, { name: 'dup' }]);
    const err = await rejection(c.createIndex({ name: 1 }, { unique: true }));
    expect(err.code).toBe(11000);
    const names = (await c.indexes()).map((i) => i.name);
    expect(names).toEqual(['_id_']);
  });

  it('builds a unique index over distinct existing values and enforces it afterwards', async () => {
    const c = fresh();
    await c.insertMany([{ name: 'a' }, { name: 'b' }]);
    await c.createIndex({ name: 1 }, { unique: true });
    expect((await rejection(c.insertOne({ name: 'a' }))).code).toBe(11000);
  });

  it('stops enforcing uniqueness once the index is dropped', async () => {
    const c = fresh();
    await c.createIndex({ name: 1 }, { unique: true });
    await c.insertOne({ name: 'a' });
    await c.dropIndex('name_1');
    await c.insertOne({ name: 'a' });
    expect(await c.countDocuments({ name: 'a' })).toBe(2);
  });
});

describe('index management', () => {
  it('listIndexes shows the _id index and created indexes with their options', async () => {
    const c = fresh();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.createIndex({ createdAt: -1 });
    const indexes = await c.listIndexes().toArray();
    expect(indexes.map((i) => i.name)).toEqual(['_id_', 'email_1', 'createdAt_-1']);
    expect(indexes[0]?.key).toEqual({ _id: 1 });
    expect(indexes[1]).toMatchObject({ key: { email: 1 }, unique: true });
    expect(indexes[2]?.unique).toBeUndefined();
  });

  it('creating the same index twice is a no-op', async () => {
    const c = fresh();
    await c.createIndex({ a: 1 }, { unique: true });
    expect(await c.createIndex({ a: 1 }, { unique: true })).toBe('a_1');
    expect(await c.indexes()).toHaveLength(2);
  });

  it('honours a custom index name', async () => {
    const c = fresh();
    expect(await c.createIndex({ a: 1, b: -1 }, { name: 'by_a_b' })).toBe('by_a_b');
    expect((await c.indexes()).map((i) => i.name)).toContain('by_a_b');
  });
});

describe('collections', () => {
  it('createCollection makes it visible to listCollections, filtered by name', async () => {
    await db.createCollection('listed_one');
    await db.collection('listed_two').insertOne({ x: 1 });
    const all = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(all).toEqual(expect.arrayContaining(['listed_one', 'listed_two']));
    const one = await db.listCollections({ name: 'listed_one' }).toArray();
    expect(one.map((c) => c.name)).toEqual(['listed_one']);
  });

  it('creating an existing collection fails with code 48 NamespaceExists', async () => {
    await db.createCollection('twice');
    const err = await rejection(db.createCollection('twice'));
    expect(err.code).toBe(48);
  });

  it('drop removes the collection and its documents', async () => {
    const c = db.collection('to_drop');
    await c.insertOne({ x: 1 });
    expect(await c.drop()).toBe(true);
    expect(await db.listCollections({ name: 'to_drop' }).toArray()).toEqual([]);
    expect(await c.countDocuments({})).toBe(0);
  });
});
