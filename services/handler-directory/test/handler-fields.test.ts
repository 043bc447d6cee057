// Every field of the handler, as the contract lists it, goes all the way: stored by a create and
// an update, shown by the detail, both lists and the JSON export, written in its columns of the
// CSV and XLSX exports. The service derives all of these from one field table
// (src/modules/handlers/fields.ts); this checks the result, so a field the table forgets, or a
// contract field without a table entry, fails here. A new field needs a value in FULL (which the
// build asks for) and a different one in CHANGED.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  EXPORT_CSV_COLUMNS,
  HandlerSchema,
  exportHandlersOperation,
  type CreateHandlerBody,
  type Handler,
} from '@dogshop/contracts/handler-directory';
import { parseString } from 'fast-csv';
import { Types } from 'mongoose';
import { csvFile } from '../src/modules/handlers/export-csv.js';
import type { StoredHandler } from '../src/modules/handlers/fields.js';
import { createTestApp, type TestApp } from './support/app.js';
import { collect, loadWorkbook, sheetCells } from './support/xlsx.js';

/** A value for every field a body can give (Required: a new body field fails to compile here). */
const FULL: Required<CreateHandlerBody> = {
  name: 'Anna Bergmann',
  address: 'Am Forsthaus 5, 29614 Soltau',
  phone: '05191 987654',
  type: 'SW',
  available: true,
  availableUntil: '2099-05-01T18:00:00.000Z',
  gps: { lat: 52.9866, lng: 9.8429 },
};

/** Another value for every field, for the update. */
const CHANGED: Required<CreateHandlerBody> = {
  name: 'Berta Cramer',
  address: 'Heideweg 7, 29633 Munster',
  phone: '05192 112233',
  type: 'BGS',
  available: false,
  availableUntil: '2099-06-02T06:30:00.000Z',
  gps: { lat: 47.6298, lng: 13.0023 },
};

/** The contract's fields of a handler, in its order. */
const FIELDS = Object.keys(HandlerSchema.properties);
/**
 * The fields of an answer, in any order: Fastify's serialiser writes the required ones first
 * (the JSON export, written field by field, keeps the contract's order).
 */
const fieldsOf = (shown: object) => Object.keys(shown).sort();
const ALL_FIELDS = [...FIELDS].sort();

/**
 * Every body text padded with more spaces than any length rule allows: accepted only when the
 * route trims the field before validation (the store trims too, but after the length check).
 */
const PADDING = ' '.repeat(400);
const padded = (body: Required<CreateHandlerBody>) =>
  Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      typeof value === 'string' ? `${PADDING}${value}${PADDING}` : value,
    ]),
  );

/**
 * The handler's values in the order of the export columns: each field's value, a nested object
 * (the position) as its values, null for none. The columns follow the API's field order.
 */
type Leaf = string | number | boolean | null;
const leaves = (handler: Handler): Leaf[] =>
  FIELDS.flatMap((name) => {
    const value = (handler as Record<string, unknown>)[name] ?? null;
    return (typeof value === 'object' && value !== null ? Object.values(value) : [value]) as Leaf[];
  });

function parseCsvRows(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString(text, { headers: false })
      .on('error', reject)
      .on('data', (row: string[]) => rows.push(row))
      .on('end', () => resolve(rows));
  });
}

let t: TestApp;
let created: Handler;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request({
    method: 'POST',
    url: '/api/users',
    payload: padded(FULL),
    as: t.admin,
  });
  expect(res.statusCode).toBe(201);
  created = res.json<{ data: Handler }>().data;
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.request({ method: 'GET', url, as: t.admin });
  expect(res.statusCode).toBe(200);
  return res;
};

describe('every field of a handler', () => {
  it('is stored by a create (text trimmed) and shown', () => {
    expect(fieldsOf(created)).toEqual(ALL_FIELDS);
    expect(created).toMatchObject(FULL);
  });

  it('is shown by the detail, the admin list, the public list and the JSON export', async () => {
    const detail = (await get(`/api/users/${created._id}`)).json().data;
    const list = (await get('/api/users')).json().data;
    const publicList = (await get('/api/public/users')).json().data;
    const page = (await get('/api/public/users?limit=10')).json().data;
    const exported = (await get('/api/users/export')).json().data;
    for (const shown of [detail, list[0], publicList[0], page[0], exported[0]]) {
      expect(fieldsOf(shown)).toEqual(ALL_FIELDS);
      expect(shown).toEqual(created);
    }
    expect(Object.keys(exported[0])).toEqual(FIELDS);
  });

  it('has its columns in the CSV export: the contract’s header, the JSON’s values in order', async () => {
    const res = await get('/api/users/export?format=csv');
    expect(res.body.startsWith('\ufeff')).toBe(true);
    const [header, row, ...rest] = await parseCsvRows(res.body.slice(1));
    expect(header).toEqual([...EXPORT_CSV_COLUMNS]);
    expect(rest).toEqual([]);
    expect(row).toEqual(leaves(created).map((value) => (value === null ? '' : String(value))));
  });

  it('has its columns in the XLSX export, as typed cells of the JSON’s values', async () => {
    const res = await get('/api/users/export?format=xlsx');
    const sheet = (await loadWorkbook(res.rawPayload)).worksheets[0]!;
    expect(sheet.actualColumnCount).toBe(EXPORT_CSV_COLUMNS.length);
    const [header, row] = sheetCells(sheet).map((cells) => cells.map((cell) => cell.value));
    expect(header).toEqual([...EXPORT_CSV_COLUMNS]);
    // Times are date cells: compared as the API's ISO 8601 text.
    const values = row!.map((value) => (value instanceof Date ? value.toISOString() : value));
    expect(values).toEqual(leaves(created));
  });

  it('is changed by an update, and a read-only one sent back is ignored', async () => {
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}`,
      // The whole handler as shown, every field changed: the service's own fields are dropped.
      payload: { ...created, __v: 0, ...padded(CHANGED) },
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    const changed = res.json().data;
    expect(fieldsOf(changed)).toEqual(ALL_FIELDS);
    expect(changed).toMatchObject({ ...CHANGED, _id: created._id, createdAt: created.createdAt });
    expect(changed).toEqual((await get(`/api/users/${created._id}`)).json().data);
  });

  it('that may be absent is removed by null; the others refuse null', async () => {
    for (const name of Object.keys(FULL)) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/users/${created._id}`,
        payload: { [name]: null },
        as: t.admin,
      });
      if (res.statusCode === 400) continue; // a required field
      expect({ name, status: res.statusCode }).toEqual({ name, status: 200 });
      // Absent, or shown as null by a field the contract always shows.
      expect(res.json().data[name] ?? null).toBeNull();
    }
  });
});

describe('the contract’s export examples', () => {
  const content = exportHandlersOperation.response[200].content;

  /** An example handler as it would be stored (the CSV is written from stored records). */
  const stored = (handler: Handler): StoredHandler => {
    const { _id, availableUntil, availabilityConfirmedAt, createdAt, updatedAt, ...rest } = handler;
    return {
      ...rest,
      _id: new Types.ObjectId(_id),
      ...(availableUntil ? { availableUntil: new Date(availableUntil) } : {}),
      ...(availabilityConfirmedAt
        ? { availabilityConfirmedAt: new Date(availabilityConfirmedAt) }
        : {}),
      createdAt: new Date(createdAt),
      updatedAt: new Date(updatedAt),
    };
  };

  it('show the CSV the service writes for the JSON example’s handlers', async () => {
    const handlers = content['application/json'].example.data;
    const csv = await collect(
      csvFile(
        (async function* () {
          yield handlers.map(stored);
        })(),
        'comma',
      ),
    );
    expect(csv.toString('utf8')).toBe(content['text/csv'].example);
  });
});
