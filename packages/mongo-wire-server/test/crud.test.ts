// CRUD behaviour through the official driver. Every assertion here holds against real MongoDB
// (run with MONGODB_URI set to check); the stand-in must produce the same results.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  Binary,
  Decimal128,
  Long,
  MongoServerError,
  ObjectId,
  type Collection,
  type Db,
} from 'mongodb';
import { openTarget, type Target } from './target.js';

let target: Target;
let db: Db;
let pets: Collection;

beforeAll(async () => {
  target = await openTarget('crud');
  db = target.client.db(target.dbName);
});

afterAll(async () => {
  await target.close();
});

beforeEach(async () => {
  pets = db.collection(`pets_${Math.random().toString(36).slice(2, 8)}`);
  await pets.insertMany([
    { name: 'Rex', species: 'dog', age: 5, tags: ['good', 'loud'] },
    { name: 'Tom', species: 'cat', age: 3, tags: ['lazy'] },
    { name: 'Ava', species: 'dog', age: 8, tags: ['good'] },
    { name: 'Zed', species: 'bird', age: 1, tags: [] },
    { name: 'Bo', species: 'dog', age: 3 },
  ]);
});

describe('insert', () => {
  it('generates an ObjectId _id when the document has none and returns it', async () => {
    const res = await pets.insertOne({ name: 'New' });
    expect(res.insertedId).toBeInstanceOf(ObjectId);
    const found = await pets.findOne({ _id: res.insertedId });
    expect(found?.name).toBe('New');
  });

  it('keeps a client-supplied _id of any type', async () => {
    await pets.insertOne({ _id: 'custom-id' as unknown as ObjectId, name: 'Str' });
    const found = await pets.findOne({ _id: 'custom-id' as unknown as ObjectId });
    expect(found).toEqual({ _id: 'custom-id', name: 'Str' });
  });

  it('round-trips Date, ObjectId, Decimal128, Long, Binary, nested objects, arrays and unicode', async () => {
    const ref = new ObjectId();
    const when = new Date('2024-02-29T12:34:56.789Z');
    const doc = {
      name: 'Types',
      ref,
      when,
      price: Decimal128.fromString('19.99'),
      big: Long.fromString('1152921504606846976'),
      ratio: 0.25,
      flag: true,
      nothing: null,
      blob: new Binary(Buffer.from([1, 2, 3])),
      nested: { deep: { list: [1, 'two', { three: 3 }] } },
      text: 'Größe 😀 日本語 café',
    };
    const { insertedId } = await pets.insertOne(doc);
    const found = await pets.findOne({ _id: insertedId });
    expect(found?.ref).toBeInstanceOf(ObjectId);
    expect(found?.ref?.toString()).toBe(ref.toHexString());
    expect(found?.when).toBeInstanceOf(Date);
    expect((found?.when as Date).getTime()).toBe(when.getTime());
    expect(found?.price).toBeInstanceOf(Decimal128);
    expect(String(found?.price)).toBe('19.99');
    expect(found?.big).toBeInstanceOf(Long);
    expect(String(found?.big)).toBe('1152921504606846976');
    expect(found?.ratio).toBe(0.25);
    expect(found?.flag).toBe(true);
    expect(found?.nothing).toBeNull();
    expect(Buffer.from((found?.blob as Binary).buffer)).toEqual(Buffer.from([1, 2, 3]));
    expect(found?.nested).toEqual({ deep: { list: [1, 'two', { three: 3 }] } });
    expect(found?.text).toBe('Größe 😀 日本語 café');
    // Querying by the typed values matches too.
    expect(await pets.countDocuments({ ref })).toBe(1);
    expect(await pets.countDocuments({ when })).toBe(1);
    expect(await pets.countDocuments({ 'nested.deep.list.three': 3 })).toBe(1);
  });
});

describe('find', () => {
  it('sorts, skips and limits in that order', async () => {
    const names = (await pets.find({}).sort({ age: 1, name: 1 }).skip(1).limit(3).toArray()).map(
      (p) => p.name,
    );
    expect(names).toEqual(['Bo', 'Tom', 'Rex']);
  });

  it('sorts descending by a string field', async () => {
    const names = (await pets.find({ species: 'dog' }).sort({ name: -1 }).toArray()).map(
      (p) => p.name,
    );
    expect(names).toEqual(['Rex', 'Bo', 'Ava']);
  });

  it('applies an inclusion projection and keeps _id unless excluded', async () => {
    const withId = await pets.findOne({ name: 'Rex' }, { projection: { name: 1, age: 1 } });
    expect(Object.keys(withId ?? {}).sort()).toEqual(['_id', 'age', 'name']);
    const withoutId = await pets.findOne({ name: 'Rex' }, { projection: { name: 1, _id: 0 } });
    expect(withoutId).toEqual({ name: 'Rex' });
  });

  it('applies an exclusion projection', async () => {
    const doc = await pets.findOne({ name: 'Rex' }, { projection: { tags: 0, species: 0 } });
    expect(Object.keys(doc ?? {}).sort()).toEqual(['_id', 'age', 'name']);
  });

  it('supports comparison, $in, $exists, $regex and array-element queries', async () => {
    const names = async (filter: object) =>
      (await pets.find(filter).sort({ name: 1 }).toArray()).map((p) => p.name);
    expect(await names({ age: { $gte: 3, $lt: 8 } })).toEqual(['Bo', 'Rex', 'Tom']);
    expect(await names({ species: { $in: ['cat', 'bird'] } })).toEqual(['Tom', 'Zed']);
    expect(await names({ tags: { $exists: false } })).toEqual(['Bo']);
    expect(await names({ name: { $regex: '^[AB]' } })).toEqual(['Ava', 'Bo']);
    expect(await names({ name: /^r/i })).toEqual(['Rex']);
    expect(await names({ tags: 'good' })).toEqual(['Ava', 'Rex']);
    expect(await names({ tags: { $size: 0 } })).toEqual(['Zed']);
    expect(await names({ $or: [{ age: 1 }, { name: 'Tom' }] })).toEqual(['Tom', 'Zed']);
  });

  it('ranges over ObjectIds in insertion order', async () => {
    const all = await pets.find({}).sort({ _id: 1 }).toArray();
    const after = await pets
      .find({ _id: { $gt: all[1]!._id } })
      .sort({ _id: 1 })
      .toArray();
    expect(after.map((p) => p.name)).toEqual(all.slice(2).map((p) => p.name));
  });

  it('returns nothing from a collection that does not exist', async () => {
    expect(await db.collection('does_not_exist').find({}).toArray()).toEqual([]);
  });
});

describe('update', () => {
  it('updateOne changes only the first match and reports counts', async () => {
    const res = await pets.updateOne({ species: 'dog' }, { $set: { vaccinated: true } });
    expect(res.matchedCount).toBe(1);
    expect(res.modifiedCount).toBe(1);
    expect(await pets.countDocuments({ vaccinated: true })).toBe(1);
  });

  it('updateMany counts matched and actually modified documents separately', async () => {
    const res = await pets.updateMany({ age: { $lte: 5 } }, { $set: { age: 3 } });
    // Rex(5), Tom(3), Zed(1), Bo(3) match; Tom and Bo already had age 3.
    expect(res.matchedCount).toBe(4);
    expect(res.modifiedCount).toBe(2);
    expect(await pets.countDocuments({ age: 3 })).toBe(4);
  });

  it('applies $inc, $push, $pull, $addToSet, $unset, $rename and $currentDate', async () => {
    // The driver's types reject array operators on an untyped collection; the wire doesn't care.
    const tagged = pets as unknown as Collection<{ name: string; tags: string[] }>;
    await tagged.updateOne(
      { name: 'Rex' },
      {
        $inc: { age: 2 },
        $push: { tags: 'old' },
        $unset: { species: '' },
        $currentDate: { seenAt: true },
      },
    );
    await tagged.updateOne({ name: 'Rex' }, { $pull: { tags: 'loud' }, $rename: { age: 'years' } });
    await pets.updateOne({ name: 'Rex' }, { $addToSet: { tags: 'good' } });
    const rex = await pets.findOne({ name: 'Rex' });
    expect(rex?.years).toBe(7);
    expect(rex?.age).toBeUndefined();
    expect(rex?.tags).toEqual(['good', 'old']);
    expect(rex?.species).toBeUndefined();
    expect(rex?.seenAt).toBeInstanceOf(Date);
  });

  it('upserts with the filter equality fields, $set and $setOnInsert, and reports the new _id', async () => {
    const res = await pets.updateOne(
      { name: 'Kit', species: 'cat' },
      { $set: { age: 0 }, $setOnInsert: { adopted: false } },
      { upsert: true },
    );
    expect(res.matchedCount).toBe(0);
    expect(res.upsertedCount).toBe(1);
    expect(res.upsertedId).toBeInstanceOf(ObjectId);
    const kit = await pets.findOne({ _id: res.upsertedId! }, { projection: { _id: 0 } });
    expect(kit).toEqual({ name: 'Kit', species: 'cat', age: 0, adopted: false });

    const again = await pets.updateOne(
      { name: 'Kit', species: 'cat' },
      { $set: { age: 1 }, $setOnInsert: { adopted: true } },
      { upsert: true },
    );
    expect(again.matchedCount).toBe(1);
    expect(again.upsertedCount).toBe(0);
    expect(await pets.findOne({ name: 'Kit' }, { projection: { _id: 0 } })).toEqual({
      name: 'Kit',
      species: 'cat',
      age: 1,
      adopted: false,
    });
  });

  it('upserts with the _id taken from the filter or from $setOnInsert', async () => {
    const byFilter = await pets.updateOne(
      { _id: 'from-filter' as never },
      { $set: { name: 'F' } },
      { upsert: true },
    );
    expect(byFilter.upsertedId).toBe('from-filter');
    expect(await pets.findOne({ _id: 'from-filter' as never })).toEqual({
      _id: 'from-filter',
      name: 'F',
    });

    const bySetOnInsert = await pets.updateOne(
      { name: 'G' },
      { $setOnInsert: { _id: 'from-set-on-insert', age: 2 } },
      { upsert: true },
    );
    expect(bySetOnInsert.upsertedId).toBe('from-set-on-insert');
    expect(await pets.findOne({ name: 'G' })).toEqual({
      _id: 'from-set-on-insert',
      name: 'G',
      age: 2,
    });
  });

  it('accepts $set of _id to its current value', async () => {
    const tom = await pets.findOne({ name: 'Tom' });
    const res = await pets.updateOne({ _id: tom!._id }, { $set: { _id: tom!._id, age: 30 } });
    expect(res.modifiedCount).toBe(1);
    expect((await pets.findOne({ _id: tom!._id }))?.age).toBe(30);
  });

  it('replaceOne swaps the document but keeps its _id', async () => {
    const before = await pets.findOne({ name: 'Tom' });
    const res = await pets.replaceOne({ name: 'Tom' }, { name: 'Thomas', age: 4 });
    expect(res.modifiedCount).toBe(1);
    expect(await pets.findOne({ _id: before!._id })).toEqual({
      _id: before!._id,
      name: 'Thomas',
      age: 4,
    });
  });

  it('refuses to change _id (code 66)', async () => {
    const err = await pets
      .updateOne({ name: 'Tom' }, { $set: { _id: new ObjectId() } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(66);
  });
});

describe('findOneAndUpdate / findOneAndDelete', () => {
  it('returns the document before the update by default and after with returnDocument: after', async () => {
    const before = await pets.findOneAndUpdate({ name: 'Ava' }, { $inc: { age: 1 } });
    expect(before?.age).toBe(8);
    const after = await pets.findOneAndUpdate(
      { name: 'Ava' },
      { $inc: { age: 1 } },
      { returnDocument: 'after' },
    );
    expect(after?.age).toBe(10);
  });

  it('uses sort to pick the document and projection to shape it', async () => {
    const oldestDog = await pets.findOneAndUpdate(
      { species: 'dog' },
      { $set: { senior: true } },
      { sort: { age: -1 }, projection: { name: 1, _id: 0 }, returnDocument: 'after' },
    );
    expect(oldestDog).toEqual({ name: 'Ava' });
  });

  it('upserts and returns the new document', async () => {
    const created = await pets.findOneAndUpdate(
      { name: 'Neo' },
      { $set: { species: 'fish' } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(created?.name).toBe('Neo');
    expect(created?.species).toBe('fish');
    expect(created?._id).toBeInstanceOf(ObjectId);
  });

  it('returns null when nothing matches and upsert is off', async () => {
    expect(await pets.findOneAndUpdate({ name: 'Nobody' }, { $set: { x: 1 } })).toBeNull();
  });

  it('findOneAndDelete removes and returns the chosen document', async () => {
    const youngest = await pets.findOneAndDelete({}, { sort: { age: 1 } });
    expect(youngest?.name).toBe('Zed');
    expect(await pets.countDocuments({})).toBe(4);
  });
});

describe('delete', () => {
  it('deleteOne removes one matching document', async () => {
    const res = await pets.deleteOne({ species: 'dog' });
    expect(res.deletedCount).toBe(1);
    expect(await pets.countDocuments({ species: 'dog' })).toBe(2);
  });

  it('deleteMany removes all matching documents and reports how many', async () => {
    expect((await pets.deleteMany({ species: 'dog' })).deletedCount).toBe(3);
    expect((await pets.deleteMany({ species: 'dog' })).deletedCount).toBe(0);
    expect(await pets.countDocuments({})).toBe(2);
  });
});

describe('count and distinct', () => {
  it('countDocuments honours filter, skip and limit', async () => {
    expect(await pets.countDocuments({ species: 'dog' })).toBe(3);
    expect(await pets.countDocuments({}, { skip: 1, limit: 3 })).toBe(3);
    expect(await pets.countDocuments({ species: 'dragon' })).toBe(0);
  });

  it('estimatedDocumentCount counts the collection', async () => {
    expect(await pets.estimatedDocumentCount()).toBe(5);
  });

  it('distinct returns each value once, flattening arrays, with an optional filter', async () => {
    expect((await pets.distinct('species')).sort()).toEqual(['bird', 'cat', 'dog']);
    expect((await pets.distinct('tags')).sort()).toEqual(['good', 'lazy', 'loud']);
    expect((await pets.distinct('name', { age: 3 })).sort()).toEqual(['Bo', 'Tom']);
  });
});

describe('commands', () => {
  it('answers ping', async () => {
    expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('rejects an unknown command with code 59 CommandNotFound', async () => {
    const err = await db.command({ definitelyNotACommand: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(59);
    expect((err as MongoServerError).codeName).toBe('CommandNotFound');
  });
});
