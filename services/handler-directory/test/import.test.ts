import { readdirSync } from 'node:fs';
import os from 'node:os';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  ImportRefusedSchema,
  ImportReportSchema,
  type Handler,
  type HandlerChange,
  type ImportReport,
} from '@dogshop/contracts/handler-directory';
import { startMongoWireServer } from '@dogshop/mongo-wire-server';
import { HttpError } from '@dogshop/service-kit';
import ExcelJS from 'exceljs';
import { mongo, trusted } from 'mongoose';
import { openDirectoryDb } from '../src/db/connection.js';
import type { HandlerRecord } from '../src/db/handler-model.js';
import { importHandlers, transactionOutOfTime } from '../src/modules/handlers/import.js';
import { nameSortKey, searchTextOf } from '../src/modules/handlers/name-sort.js';
import { IMPORT_MESSAGES } from '../src/messages.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { uniqueDbName } from './support/database.js';
import { createHandler } from './support/handlers.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV = 'text/csv; charset=utf-8';
const DAY = 24 * 60 * 60 * 1000;
const future = () => new Date(Date.now() + 30 * DAY).toISOString();

let t: TestApp;
let full: Handler;
let bare: Handler;

beforeAll(async () => {
  t = await createTestApp();
  full = await createHandler(t, {
    name: 'Anna Bergmann',
    address: 'Am Forsthaus 5, 29614 Soltau',
    phone: '+49 5191 987654',
    type: 'SW',
    availableUntil: future(),
    gps: { lat: 52.9866, lng: -9.8429 },
  });
  bare = await createHandler(t, { name: 'Ohne Alles', phone: '0171 55', available: false });
  await createHandler(t, {
    name: 'Zeilen\numbruch; mit, "allem"',
    phone: '-5',
    address: 'Hof\r\nTor _x0041_',
    type: '@T',
  });
  await createHandler(t, {
    name: '=HYPERLINK("http://x")',
    phone: '=1+2',
    address: '+1 Hinterhof',
  });
  // An end that has passed cannot be written through the API, but stays stored.
  await t.app.db.handlers.create({
    name: 'Abgelaufen',
    phone: '0800 1',
    available: true,
    availableUntil: new Date(Date.now() - DAY),
  });
});
afterAll(() => t.close());

const importFile = (
  payload: string | Buffer,
  {
    type = CSV,
    query = '',
    as = t.admin,
  }: { type?: string; query?: string; as?: TestApp['admin'] } = {},
) =>
  t.request({
    method: 'POST',
    url: `/api/users/import${query}`,
    payload,
    headers: { 'content-type': type },
    as,
  });

async function exported(query: string): Promise<Buffer> {
  const res = await t.request({ method: 'GET', url: `/api/users/export${query}`, as: t.admin });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

async function allHandlers(): Promise<Handler[]> {
  const res = await t.request({ method: 'GET', url: '/api/users', as: t.admin });
  return res.json<{ data: Handler[] }>().data;
}

async function history(id: string): Promise<HandlerChange[]> {
  const res = await t.request({ method: 'GET', url: `/api/users/${id}/history`, as: t.admin });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: HandlerChange[] }>().data;
}

const getHandler = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api/users/${id}`, as: t.admin })).json<{
    data: Handler;
  }>().data;

function report(res: { statusCode: number; json: () => unknown }, status = 200): ImportReport {
  expect(res.statusCode).toBe(status);
  expectContract(status === 200 ? ImportReportSchema : ImportRefusedSchema, res.json());
  return res.json() as ImportReport;
}

async function workbook(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Hundeführer');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('a file the service exported, imported unchanged', () => {
  it.each([
    ['CSV, comma', '?format=csv', CSV],
    ['CSV, semicolon', '?format=csv&delimiter=semicolon', CSV],
    ['XLSX', '?format=xlsx', XLSX],
  ])('%s: every row unchanged, nothing written even with dryRun=false', async (_, query, type) => {
    const before = await allHandlers();
    const file = await exported(query);
    const dry = report(await importFile(file, { type }));
    expect(dry).toMatchObject({ dryRun: true, applied: false, problems: [] });
    expect(dry.summary).toEqual({
      rows: before.length,
      create: 0,
      update: 0,
      unchanged: before.length,
      invalid: 0,
    });
    expect(dry.rows.map((r) => r.id).sort()).toEqual(before.map((h) => h._id).sort());

    const applied = report(await importFile(file, { type, query: '?dryRun=false' }));
    expect(applied).toMatchObject({ dryRun: false, applied: true, problems: [] });
    expect(applied.summary.unchanged).toBe(before.length);
    expect(await allHandlers()).toEqual(before);
    expect((await history(full._id)).map((c) => c.action)).not.toContain('import');
  });
});

describe('problems', () => {
  it('names the row and column of each, and dryRun=false applies none of the rows (422)', async () => {
    const file = [
      'id,name,address,phone,type,available,availableUntil,lat,lng',
      ',,Weg 1,0171 1,,true,,,',
      ',Falsche Breite,,0171 2,,true,,200,10',
      ',Falsches Ende,,0171 3,,true,morgen,,',
      ',Gut,,0171 4,,true,,,',
    ].join('\r\n');
    const dry = report(await importFile(file));
    expect(dry.problems).toEqual([
      { row: 2, column: 'name', message: 'darf nicht leer sein' },
      { row: 3, column: 'lat', message: 'keine Zahl zwischen -90 und 90' },
      {
        row: 4,
        column: 'availableUntil',
        message: 'kein Zeitpunkt nach ISO 8601 mit Zeitzone (z. B. 2026-03-22T19:00:00Z)',
      },
    ]);
    expect(dry.summary).toEqual({ rows: 4, create: 1, update: 0, unchanged: 0, invalid: 3 });
    expect(dry.rows.map((r) => r.action)).toEqual(['invalid', 'invalid', 'invalid', 'create']);

    const count = (await allHandlers()).length;
    const res = await importFile(file, { query: '?dryRun=false' });
    const refused = report(res, 422);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'Import nicht angewendet: 3 Zeilen mit Problemen',
      dryRun: false,
      applied: false,
    });
    expect(refused.problems).toEqual(dry.problems);
    expect((await allHandlers()).length).toBe(count);
  });

  it('refuses unknown and repeated ids, half positions, decimal commas, past ends and other values', async () => {
    const file = [
      'id,name,phone,available,availableUntil,lat,lng',
      `0123456789abcdef01234567,Unbekannt,1,true,,,`,
      `${bare._id},${bare.name},${bare.phone},false,,,`,
      `${bare._id.toUpperCase()},${bare.name},${bare.phone},false,,,`,
      `,Halbe Position,1,true,,52.1,`,
      `,Komma,1,true,,"52,98",9.1`,
      `,Vorbei,1,true,2020-01-01T00:00:00Z,,`,
      `,Jein,1,ja,,,`,
      `keine-id,Kaputte Id,1,true,,,`,
      `${full._id},${full.name},1,true,morgen,,`,
    ].join('\n');
    const dry = report(await importFile(file));
    expect(dry.problems).toEqual([
      { row: 2, column: 'id', message: 'kein Hundeführer mit dieser id' },
      { row: 4, column: 'id', message: 'dieselbe id wie in Zeile 3' },
      { row: 5, column: 'lng', message: 'lat und lng nur gemeinsam angeben' },
      {
        row: 6,
        column: 'lat',
        message: 'keine Zahl zwischen -90 und 90 (Dezimalpunkt statt Komma verwenden)',
      },
      { row: 7, column: 'availableUntil', message: 'muss in der Zukunft liegen' },
      { row: 8, column: 'available', message: 'true oder false erwartet' },
      { row: 9, column: 'id', message: 'keine gültige id (24 Hexadezimalzeichen)' },
      {
        row: 10,
        column: 'availableUntil',
        message: 'kein Zeitpunkt nach ISO 8601 mit Zeitzone (z. B. 2026-03-22T19:00:00Z)',
      },
    ]);
    expect(dry.rows[1]).toEqual({ row: 3, action: 'unchanged', id: bare._id });
  });

  it('answers 400 for a file without a required column, or not in UTF-8', async () => {
    expectDirectoryError(
      await importFile(Buffer.from('name,phone\nJ\xf6rg,1', 'latin1')),
      400,
      'Ungültige Anfrage: die CSV-Datei ist nicht in UTF-8 kodiert',
    );
    expectDirectoryError(
      await importFile('name,address\nA,B'),
      400,
      'Ungültige Anfrage: die Datei hat keine Spalte phone',
    );
    expectDirectoryError(
      await importFile('name,phone,lat\nA,1,2'),
      400,
      'Ungültige Anfrage: die Spalten lat und lng nur gemeinsam',
    );
  });
});

describe('applying', () => {
  it('creates and updates in one go, each change in the history as an import by the admin', async () => {
    const newPhone = '+49 5191 111111';
    const file = [
      'id,name,phone,address,available,lat,lng,createdAt,unbekannt',
      // Changes the phone and removes the address; type (no column) stays.
      `${full._id},${full.name},'${newPhone},,true,${full.gps!.lat},${full.gps!.lng},egal,x`,
      `,Neu Angelegt,0171 999,"Hauptstr. 1, Ort",false,53.1,8.8,,`,
      `${bare._id},${bare.name},${bare.phone},,false,,,,`,
    ].join('\r\n');

    const dry = report(await importFile(file));
    expect(dry.rows).toEqual([
      { row: 2, action: 'update', id: full._id },
      { row: 3, action: 'create' },
      { row: 4, action: 'unchanged', id: bare._id },
    ]);
    expect((await getHandler(full._id)).phone).toBe(full.phone);

    const applied = report(await importFile(file, { query: '?dryRun=false' }));
    expect(applied).toMatchObject({ dryRun: false, applied: true });
    expect(applied.summary).toEqual({ rows: 3, create: 1, update: 1, unchanged: 1, invalid: 0 });
    const createdId = applied.rows[1]!.id!;
    expect(createdId).toMatch(/^[0-9a-f]{24}$/);

    const updated = await getHandler(full._id);
    expect(updated).toMatchObject({ phone: newPhone, type: 'SW', available: true });
    expect(updated).not.toHaveProperty('address');
    expect(updated.availableUntil).toBe(full.availableUntil);
    const created = await getHandler(createdId);
    expect(created).toMatchObject({
      name: 'Neu Angelegt',
      phone: '0171 999',
      address: 'Hauptstr. 1, Ort',
      available: false,
      availableUntil: null,
      gps: { lat: 53.1, lng: 8.8 },
    });
    expect(created.availabilityConfirmedAt).not.toBeNull();

    const actor = { id: t.admin.id, username: t.admin.username, role: 'admin' };
    const [change] = await history(full._id);
    expect(change).toMatchObject({ action: 'import', actor });
    expect(change!.changes.map((c) => c.field).sort()).toEqual(['address', 'phone']);
    const [creation] = await history(createdId);
    expect(creation).toMatchObject({ action: 'import', actor });
    expect((await history(bare._id)).map((c) => c.action)).not.toContain('import');
  });

  it('reads back a semicolon file with the formula guard, keeping other apostrophes', async () => {
    const before = await exported('?format=csv&delimiter=semicolon');
    expect(before.toString()).toContain(";'+1 Hinterhof;'=1+2;");
    const file = [
      'name;phone;address',
      "Mit Plus;'+49 171 1;'=A1",
      "Mit Minus;'-5;'@Hof",
      "Apostroph;'0171;'Hof",
    ].join('\r\n');
    const applied = report(await importFile(file, { query: '?dryRun=false' }));
    const ids = applied.rows.map((r) => r.id!);
    const handlers = await Promise.all(ids.map(getHandler));
    expect(handlers.map((h) => [h.phone, h.address])).toEqual([
      ['+49 171 1', '=A1'],
      ['-5', '@Hof'],
      ["'0171", "'Hof"],
    ]);
    // Exported again and imported: unchanged.
    const again = report(await importFile(await exported('?format=csv&delimiter=semicolon')));
    expect(again.summary.unchanged).toBe(again.summary.rows);
  });
});

describe('formulas are never evaluated', () => {
  it('takes a CSV cell that looks like a formula as its text', async () => {
    const file = 'name,phone\r\n"=HYPERLINK(""x"")",1';
    const applied = report(await importFile(file, { query: '?dryRun=false' }));
    expect((await getHandler(applied.rows[0]!.id!)).name).toBe('=HYPERLINK("x")');
  });

  it('refuses an XLSX formula cell, and reads typed cells', async () => {
    const until = new Date(Date.now() + 7 * DAY);
    const file = await workbook([
      ['name', 'phone', 'available', 'availableUntil', 'lat', 'lng'],
      [{ formula: 'CONCAT("a","b")', result: 'ab' }, '1', true, null, null, null],
      ['Typisiert', 4917112345, false, until, 48.1, 11.5],
    ]);
    const dry = report(await importFile(file, { type: XLSX }));
    expect(dry.problems).toEqual([
      {
        row: 2,
        column: 'name',
        message: 'Formeln werden nicht übernommen (den Wert als Text eingeben)',
      },
    ]);
    expect(dry.rows.map((r) => r.action)).toEqual(['invalid', 'create']);
    report(await importFile(file, { type: XLSX, query: '?dryRun=false' }), 422);

    const typed = await workbook([
      ['name', 'phone', 'available', 'availableUntil', 'lat', 'lng'],
      ['Typisiert', 4917112345, false, until, 48.1, 11.5],
    ]);
    const applied = report(await importFile(typed, { type: XLSX, query: '?dryRun=false' }));
    expect(await getHandler(applied.rows[0]!.id!)).toMatchObject({
      name: 'Typisiert',
      phone: '4917112345',
      available: false,
      availableUntil: until.toISOString(),
      gps: { lat: 48.1, lng: 11.5 },
    });
  });
});

describe('the request body in the OpenAPI document', () => {
  it('names both file types the route takes, and its CSV example is a file the import reads', async () => {
    const doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: Record<string, unknown> }>>;
    }>();
    const body = doc.paths['/api/users/import']!.post!.requestBody as {
      required: boolean;
      content: Record<string, { schema: Record<string, unknown>; example?: string }>;
    };
    expect(body.required).toBe(true);
    expect(Object.keys(body.content).sort()).toEqual([XLSX, 'text/csv'].sort());
    for (const [type, media] of Object.entries(body.content)) {
      // No JSON type: a validating proxy takes the file's bytes as they are.
      expect(media.schema).toEqual(expect.objectContaining({ contentMediaType: type }));
      expect(media.schema).not.toHaveProperty('type');
    }
    const dry = report(await importFile(body.content['text/csv']!.example!));
    expect(dry.summary).toMatchObject({ rows: 1, create: 1, invalid: 0 });
  });
});

describe('refusals', () => {
  it('answers 415 for another content type, 413 beyond 10 MB or 50,000 rows, 403 to a viewer', async () => {
    const json = await t.request({
      method: 'POST',
      url: '/api/users/import',
      payload: { name: 'x', phone: '1' },
      as: t.admin,
    });
    expectDirectoryError(
      json,
      415,
      'Nicht unterstützter Content-Type (erwartet: text/csv oder eine XLSX-Datei)',
    );
    const tooLarge = 'Datei zu groß (höchstens 10 MB und 50.000 Zeilen)';
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'a');
    expectDirectoryError(await importFile(big), 413, tooLarge);
    const manyRows = `name,phone\r\n${'x,1\r\n'.repeat(50_001)}`;
    expectDirectoryError(await importFile(manyRows), 413, tooLarge);
    expectDirectoryError(await importFile('name,phone\r\nx,1', { as: t.viewer }), 403);
    // Other routes still take JSON only.
    const csvElsewhere = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: 'name,phone',
      headers: { 'content-type': 'text/csv' },
      as: t.admin,
    });
    expect(csvElsewhere.statusCode).toBe(415);
  });
});

describe('an XLSX workbook beyond the row limit', () => {
  /** A workbook of the export's sheet with a header and `rows` data rows, written as it streams. */
  async function manyRows(rows: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const stream = new PassThrough().on('data', (chunk: Buffer) => chunks.push(chunk));
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false });
    const sheet = book.addWorksheet('Hundeführer');
    sheet.addRow(['name', 'phone']).commit();
    for (let i = 0; i < rows; i += 1) sheet.addRow([`Zeile ${i}`, i]).commit();
    await book.commit();
    return Buffer.concat(chunks);
  }

  /** Refuses `file`; the CPU time this process spent on it (µs), which load does not stretch. */
  async function refusal(file: Buffer): Promise<number> {
    const started = process.cpuUsage();
    expectDirectoryError(
      await importFile(file, { type: XLSX }),
      413,
      'Datei zu groß (höchstens 10 MB und 50.000 Zeilen)',
    );
    const { user, system } = process.cpuUsage(started);
    return user + system;
  }

  it('is refused at its 50,001st row, without reading the rows after it', async () => {
    const atLimit = await manyRows(IMPORT_MAX_ROWS + 1);
    const fourTimes = await manyRows(4 * IMPORT_MAX_ROWS);
    expect(fourTimes.length).toBeLessThan(IMPORT_MAX_BYTES);
    // ExcelJS unzips a sheet stored before the shared strings (as its writer stores them) to a
    // temporary file of this process first: none may stay behind a refusal.
    const temporaryFiles = () =>
      readdirSync(os.tmpdir()).filter((name) => name.startsWith(`tmp-${process.pid}-`));
    const before = temporaryFiles();
    await refusal(atLimit); // warm-up
    const small = await refusal(atLimit);
    const large = await refusal(fourTimes);
    expect(temporaryFiles()).toEqual(before);
    // Reading stops at the limit: four times the rows cost about as much as one row too many
    // (measured: 0.72 s and 1.08 s of CPU; in time at six times, 1.5 s and 2.4 s, against 2.5 s
    // and 13.6 s when the whole workbook was loaded first).
    expect(large).toBeLessThan(2 * small);
  });
});

describe('many updates', () => {
  it('applies a file of 400 updates: every record as the file says, one history entry per changed handler', async () => {
    const COUNT = 400;
    // Written straight to the database: no history of their own.
    const inserted = await t.app.db.handlers.insertMany(
      Array.from({ length: COUNT }, (_, i) => ({
        name: `Viele ${String(i).padStart(3, '0')}`,
        phone: `0171 ${i}`,
        ...(i % 2 === 0 ? { address: `Weg ${i}` } : {}),
        available: true,
      })),
    );
    const ids = inserted.map((doc) => doc._id.toHexString());
    const before = new Map((await allHandlers()).map((h) => [h._id, h]));
    const until = future();

    // Row i: every fourth unchanged; the others each change something else.
    type Expected = { fields: string[]; handler: Partial<Handler> };
    const expected = new Map<string, Expected>();
    const rows = ['id,name,phone,address,available,availableUntil,lat,lng'];
    ids.forEach((id, i) => {
      const old = before.get(id)!;
      const row = {
        name: old.name,
        phone: old.phone,
        address: old.address ?? '',
        available: String(old.available),
        availableUntil: '',
        lat: '',
        lng: '',
      };
      let fields: string[] = [];
      // Even rows have an address, odd ones none.
      switch (i % 4) {
        case 1:
          row.name = `Umbenannt Ärger ${i}`;
          row.address = `Neue Straße ${i}`;
          fields = ['name', 'address'];
          break;
        case 2:
          row.phone = `+49 30 ${i}`;
          row.address = '';
          row.lat = '52.5';
          row.lng = String(13 + i / 1000);
          fields = ['phone', 'address', 'gps'];
          break;
        case 3:
          row.available = 'false';
          row.availableUntil = until;
          fields = ['available', 'availableUntil', 'availabilityConfirmedAt'];
          break;
      }
      const handler: Partial<Handler> = {
        name: row.name,
        phone: row.phone,
        available: row.available === 'true',
        availableUntil: row.availableUntil || null,
        ...(row.address ? { address: row.address } : {}),
        ...(row.lat ? { gps: { lat: Number(row.lat), lng: Number(row.lng) } } : {}),
      };
      expected.set(id, { fields, handler });
      rows.push(
        [id, row.name, row.phone, row.address, row.available, row.availableUntil, row.lat, row.lng]
          .map((cell) => `"${cell}"`)
          .join(','),
      );
    });
    const changed = ids.filter((id) => expected.get(id)!.fields.length > 0);

    const applied = report(await importFile(rows.join('\r\n'), { query: '?dryRun=false' }));
    expect(applied.summary).toEqual({
      rows: COUNT,
      create: 0,
      update: changed.length,
      unchanged: COUNT - changed.length,
      invalid: 0,
    });

    // Every record: the file's values, the rest as before.
    const after = new Map((await allHandlers()).map((h) => [h._id, h]));
    for (const id of ids) {
      const { fields, handler } = expected.get(id)!;
      const old = before.get(id)!;
      const now = after.get(id)!;
      expect(now).toMatchObject(handler);
      if (!('address' in handler)) expect(now).not.toHaveProperty('address');
      if (!('gps' in handler)) expect(now).not.toHaveProperty('gps');
      if (fields.length === 0) {
        expect(now).toEqual(old);
      } else {
        expect(Date.parse(now.updatedAt)).toBeGreaterThan(Date.parse(old.updatedAt));
        expect(now.createdAt).toBe(old.createdAt);
      }
      if (fields.includes('availabilityConfirmedAt')) {
        expect(now.availabilityConfirmedAt).not.toBe(old.availabilityConfirmedAt);
      } else {
        expect(now.availabilityConfirmedAt).toBe(old.availabilityConfirmedAt);
      }
    }
    // The stored sort key and search text follow the new names, addresses and phones.
    const records = await t.app.db.handlers
      .find({ _id: trusted({ $in: inserted.map((doc) => doc._id) }) })
      .lean<HandlerRecord[]>();
    expect(records).toHaveLength(COUNT);
    for (const record of records) {
      expect(record.nameSort).toBe(nameSortKey(record.name));
      expect(record.searchText).toBe(searchTextOf(record));
    }
    const search = async (q: string) =>
      (
        await t.request({
          method: 'GET',
          url: `/api/users?q=${encodeURIComponent(q)}`,
          as: t.admin,
        })
      )
        .json<{ data: Handler[] }>()
        .data.map((h) => h.name);
    expect(await search('umbenannt arger 5')).toEqual(
      ids
        .map((id) => expected.get(id)!.handler.name!)
        .filter((name) => name.startsWith('Umbenannt Ärger 5'))
        .sort((a, b) => (nameSortKey(a) < nameSortKey(b) ? -1 : 1)),
    );
    expect(await search('viele 005')).toEqual([]);
    expect(await search('neue strasse 397')).toEqual(['Umbenannt Ärger 397']);

    // The history: one import entry per changed handler, naming exactly its changed fields.
    const actor = { id: t.admin.id, username: t.admin.username, role: 'admin' };
    for (const id of ids) {
      const entries = await history(id);
      const { fields } = expected.get(id)!;
      if (fields.length === 0) {
        expect(entries).toEqual([]);
        continue;
      }
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action: 'import', actor, handlerId: id });
      expect(entries[0]!.changes.map((c) => c.field).sort()).toEqual([...fields].sort());
      const old = before.get(id)!;
      const now = after.get(id)!;
      for (const change of entries[0]!.changes) {
        const field = change.field as keyof Handler;
        expect(change.before).toEqual(old[field] ?? null);
        expect(change.after).toEqual(now[field] ?? null);
      }
    }
  }, 120_000);
});

describe('a transaction the database aborts for its length', () => {
  it('is answered 503 with nothing applied, not retried for minutes', async () => {
    // A stand-in whose lifetime limit (5 ms) no transaction of 2,000 rows keeps.
    const server = await startMongoWireServer({
      log: () => {},
      transactionLifetimeLimitSeconds: 0.005,
    });
    const db = await openDirectoryDb(server.uri, { dbName: uniqueDbName('import_long') });
    try {
      const file = `name,phone\r\n${Array.from({ length: 2_000 }, (_, i) => `Lang ${i},${i}`).join('\r\n')}`;
      const writer = { db, changed: async () => {}, actor: null };
      const failed = await importHandlers(
        writer,
        { bytes: Buffer.from(file), format: 'csv' },
        false,
        new Date(),
        // Any attempt that failed is one too long here: no second one.
        { attemptLimitMs: 0 },
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(HttpError);
      expect(failed).toMatchObject({ statusCode: 503, message: IMPORT_MESSAGES.tooLong });
      expect(await db.handlers.countDocuments()).toBe(0);
      expect(await db.history.countDocuments()).toBe(0);
    } finally {
      await db.close();
      await server.close();
    }
  });

  it('the driver giving up its retries (NoSuchTransaction, TransientTransactionError) counts as too long', () => {
    const aborted = new mongo.MongoServerError({
      ok: 0,
      code: 251,
      codeName: 'NoSuchTransaction',
      errmsg: 'Transaction with { txnNumber: 2 } has been aborted.',
      errorLabels: ['TransientTransactionError'],
    });
    expect(transactionOutOfTime(aborted)).toBe(true);
    const duplicate = new mongo.MongoServerError({ ok: 0, code: 11000, errmsg: 'E11000' });
    expect(transactionOutOfTime(duplicate)).toBe(false);
    expect(transactionOutOfTime(new Error('other'))).toBe(false);
  });
});
