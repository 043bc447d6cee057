// Unmodified Mongoose code against the target: schema with a unique index, CRUD, a lean
// streaming cursor over 1000 documents, countDocuments and sorting.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import { openTarget, type Target } from './target.js';

interface Dog {
  name: string;
  breed: string;
  age: number;
  tags: string[];
}

let target: Target;
let conn: Connection;
let Dogs: Model<Dog>;

beforeAll(async () => {
  target = await openTarget('mongoose');
  conn = await mongoose.createConnection(target.uri, { dbName: target.dbName }).asPromise();
  const schema = new Schema<Dog>(
    {
      name: { type: String, required: true, unique: true },
      breed: { type: String, required: true },
      age: { type: Number, default: 0 },
      tags: { type: [String], default: [] },
    },
    { timestamps: true },
  );
  Dogs = conn.model<Dog>('Dog', schema);
  await Dogs.init(); // builds the unique index
});

afterAll(async () => {
  await conn.close();
  await target.close();
});

describe('mongoose', () => {
  it('builds the schema unique index', async () => {
    const indexes = await Dogs.listIndexes();
    expect(indexes.find((i) => i.name === 'name_1')).toMatchObject({
      key: { name: 1 },
      unique: true,
    });
  });

  it('creates, reads, updates and deletes', async () => {
    const rex = await Dogs.create({ name: 'Rex', breed: 'boxer', age: 4 });
    expect(rex._id).toBeDefined();
    expect(rex.get('createdAt')).toBeInstanceOf(Date);

    const found = await Dogs.findById(rex._id).lean();
    expect(found).toMatchObject({ name: 'Rex', breed: 'boxer', age: 4, tags: [] });

    const updated = await Dogs.findOneAndUpdate(
      { name: 'Rex' },
      { $inc: { age: 1 }, $push: { tags: 'good' } },
      { returnDocument: 'after' },
    ).lean();
    expect(updated).toMatchObject({ age: 5, tags: ['good'] });

    const res = await Dogs.updateOne({ name: 'Rex' }, { breed: 'mixed' });
    expect(res.modifiedCount).toBe(1);
    expect((await Dogs.findOne({ name: 'Rex' }))?.breed).toBe('mixed');

    rex.age = 9;
    await rex.save();
    expect((await Dogs.findById(rex._id).lean())?.age).toBe(9);

    expect((await Dogs.deleteOne({ name: 'Rex' })).deletedCount).toBe(1);
    expect(await Dogs.findById(rex._id)).toBeNull();
  });

  it('rejects a duplicate name with code 11000', async () => {
    await Dogs.create({ name: 'Solo', breed: 'husky' });
    const err = (await Dogs.create({ name: 'Solo', breed: 'pug' }).catch((e: unknown) => e)) as {
      code?: number;
      keyValue?: unknown;
    };
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ name: 'Solo' });
    await Dogs.deleteMany({ name: 'Solo' });
  });

  it('streams 1000 lean documents through a cursor, each exactly once', async () => {
    await Dogs.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({
        name: `dog-${String(i).padStart(4, '0')}`,
        breed: i % 3 === 0 ? 'collie' : 'terrier',
        age: i % 15,
      })),
    );
    const names = new Set<string>();
    let count = 0;
    for await (const dog of Dogs.find({}).lean().cursor({ batchSize: 100 })) {
      names.add((dog as Dog).name);
      count += 1;
    }
    expect(count).toBe(1000);
    expect(names.size).toBe(1000);
  });

  it('counts with a filter and sorts by name', async () => {
    expect(await Dogs.countDocuments({ breed: 'collie' })).toBe(334);
    expect(await Dogs.countDocuments({ age: { $gte: 10 } })).toBe(5 * 66);
    const firstThree = await Dogs.find({}).sort({ name: 1 }).limit(3).select('name -_id').lean();
    expect(firstThree).toEqual([{ name: 'dog-0000' }, { name: 'dog-0001' }, { name: 'dog-0002' }]);
    const lastTwo = await Dogs.find({ breed: 'collie' }).sort({ name: -1 }).limit(2).lean();
    expect(lastTwo.map((d) => d.name)).toEqual(['dog-0999', 'dog-0996']);
  });
});
