// Repeated reads served from kept state: cursor replies assembled from each stored document's
// encoded BSON, top-level field projections applied to those bytes, and sorted views for indexed
// sort orders. Unit checks pin the encodings to what `bson` itself produces; the driver checks
// run against a real MongoDB too (MONGODB_URI) and show writes are never hidden by what is kept.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deserialize, Long, ObjectId, serialize } from 'bson';
import { find } from 'mingo';
import type { Collection as DriverCollection } from 'mongodb';
import type { Doc } from '../src/errors.js';
import { fieldProjection, projectBytes, projectDocument } from '../src/query/field-projection.js';
import { sortDocuments } from '../src/query/find.js';
import { Collection } from '../src/storage/collection.js';
import { encodeDocument } from '../src/wire/bson-options.js';
import { batchReply, documentBytes } from '../src/wire/cursor-reply.js';
import { openTarget, type Target } from './target.js';

const SAMPLE: Doc = {
  _id: new ObjectId('665f1c2ab4d3e8a1c2f0b123'),
  name: 'Jürgen Größmann',
  nameSort: 'jurgen grossmann',
  tags: ['a', 'b'],
  gps: { lat: 52.9866, lng: -10.0869 },
  available: true,
  createdAt: new Date('2026-02-11T07:45:00.000Z'),
  n: 2 ** 40,
};

describe('cursor replies assembled from encoded documents', () => {
  it.each([
    ['firstBatch', [], Long.ZERO, 'db.c'],
    ['firstBatch', [SAMPLE, { _id: 2 }], Long.fromNumber(2 ** 47 + 5), 'db.c'],
    ['nextBatch', Array.from({ length: 12 }, (_, i) => ({ ...SAMPLE, i })), Long.ZERO, 'dö.ß'],
  ] as const)('encode %s exactly as bson serialises the same reply', (field, docs, id, ns) => {
    const reply = batchReply(
      field,
      [...docs],
      docs.map((d) => documentBytes(d, false)),
      id,
      ns,
    );
    const expected = serialize({ cursor: { [field]: docs, id, ns }, ok: 1 });
    expect(Buffer.compare(encodeDocument(reply), Buffer.from(expected))).toBe(0);
    // The reply object itself carries the documents too.
    expect(reply).toEqual({ cursor: { [field]: docs, id, ns }, ok: 1 });
  });
});

describe('top-level field projections', () => {
  it.each([
    [{ name: 1, gps: 1 }],
    [{ name: true, _id: 0 }],
    [{ nameSort: 0, tags: 0 }],
    [{ _id: 0 }],
    [{ _id: 1 }],
    [{ missing: 1 }],
    [{ name: 1, _id: 1, available: 1, createdAt: 1 }],
  ])('%j gives the fields and values mingo gives, in document order', (projection) => {
    const fields = fieldProjection(projection)!;
    expect(fields).toBeDefined();
    const expected = find([SAMPLE], {}, projection).all()[0]!;
    const fromObject = projectDocument(SAMPLE, fields);
    const fromBytes = deserialize(projectBytes(serialize(SAMPLE), fields), {
      promoteLongs: true,
    });
    expect(fromObject).toEqual(expected);
    expect(fromBytes).toEqual(expected);
    const order = Object.keys(SAMPLE);
    expect(Object.keys(fromBytes)).toEqual(order.filter((k) => k in expected));
  });

  it.each([
    [{}],
    [{ 'gps.lat': 1 }],
    [{ name: 1, tags: 0 }],
    [{ tags: { $slice: 1 } }],
    [{ n: 2 }],
  ])('leaves %j to mingo', (projection) => {
    expect(fieldProjection(projection)).toBeUndefined();
  });
});

describe('sorted views', () => {
  const byName = (docs: readonly Doc[]) => docs.map((d) => d.name);
  const sortAll = (sort: Doc) => (docs: readonly Doc[]) => sortDocuments(docs, sort);

  it('are kept only for the key pattern of an index, and rebuilt after every change', () => {
    const c = new Collection('db', 'c');
    for (const [i, name] of ['b', 'a', 'c'].entries()) c.insert({ _id: i, name });
    const sort = { name: 1 };
    expect(c.sortedBy(sort, sortAll(sort))).toBeUndefined();
    c.createIndex({ v: 2, key: { name: 1 }, name: 'name_1' });
    const first = c.sortedBy(sort, sortAll(sort))!;
    expect(byName(first)).toEqual(['a', 'b', 'c']);
    expect(c.sortedBy(sort, () => [])).toBe(first);

    c.insert({ _id: 3, name: 'aa' });
    expect(byName(c.sortedBy(sort, sortAll(sort))!)).toEqual(['a', 'aa', 'b', 'c']);
    c.replace(c.all()[0]!, { _id: 0, name: 'z' });
    expect(byName(c.sortedBy(sort, sortAll(sort))!)).toEqual(['a', 'aa', 'c', 'z']);
    c.remove(c.all().find((d) => d.name === 'c')!);
    expect(byName(c.sortedBy(sort, sortAll(sort))!)).toEqual(['a', 'aa', 'z']);
    // The view an open cursor holds is never changed afterwards.
    expect(byName(first)).toEqual(['a', 'b', 'c']);
  });
});

describe('repeated reads through the driver', () => {
  let target: Target;
  let people: DriverCollection<{ _id: number; name: string; age: number; note?: string }>;

  beforeAll(async () => {
    target = await openTarget('encoded');
    people = target.client.db(target.dbName).collection('people');
    await people.createIndex({ name: 1, _id: 1 });
    await people.insertMany(
      Array.from({ length: 300 }, (_, i) => ({
        _id: i,
        name: `p${String((i * 7) % 300).padStart(3, '0')}`,
        age: i % 50,
        note: 'x',
      })),
    );
  });
  afterAll(() => target.close());

  const sorted = (projection?: Doc) =>
    people
      .find({ age: { $gte: 10 } }, { sort: { name: 1, _id: 1 }, batchSize: 40, projection })
      .toArray();

  it('see every write, sorted by an index and projected, read after read', async () => {
    const before = await sorted({ name: 1, age: 1 });
    expect(await sorted({ name: 1, age: 1 })).toEqual(before);
    expect(Object.keys(before[0]!).sort()).toEqual(['_id', 'age', 'name']);
    const names = before.map((d) => d.name);
    expect(names).toEqual([...names].sort());

    await people.updateOne({ _id: 10 }, { $set: { name: 'a-first', age: 49 } });
    await people.deleteOne({ _id: 11 });
    await people.insertOne({ _id: 1000, name: 'zz-last', age: 20 });
    const after = await sorted({ name: 1, age: 1 });
    expect(after[0]).toEqual({ _id: 10, name: 'a-first', age: 49 });
    expect(after.at(-1)).toEqual({ _id: 1000, name: 'zz-last', age: 20 });
    expect(after.some((d) => d._id === 11)).toBe(false);
    expect(after).toHaveLength(before.length);

    const whole = await sorted();
    expect(whole.map((d) => d._id)).toEqual(after.map((d) => d._id));
    expect(whole[0]).toEqual({ _id: 10, name: 'a-first', age: 49, note: 'x' });
  });
});
