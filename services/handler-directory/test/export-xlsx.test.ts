import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EXPORT_CSV_COLUMNS, type Handler } from '@dogshop/contracts/handler-directory';
import ExcelJS from 'exceljs';
import { exportXlsx } from '../src/modules/handlers/export-xlsx.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectDirectoryError } from './support/contract.js';
import { testMongoUri, withDatabase } from './support/database.js';
import { createHandler } from './support/handlers.js';
import { collect, decodeXstring, loadWorkbook, sheetCells } from './support/xlsx.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const { ValueType } = ExcelJS;

let t: TestApp;
let withPhone: Handler;
let formulaName: Handler;
let bare: Handler;
/** Inserted directly: text with characters XML cannot carry, which the API may refuse. */
const CONTROL = {
  name: 'Zeile\r\nUmbruch\u0007Glocke\u001bEsc',
  phone: 'Durchwahl _x0041_ bleibt',
  address: 'Hof\tTor \uffff',
};

beforeAll(async () => {
  t = await createTestApp();
  withPhone = await createHandler(t, {
    name: 'Anna Bergmann',
    phone: '+49 8652 987654',
    address: 'Am Forsthaus 5, 83471 Berchtesgaden',
    type: 'SW',
    gps: { lat: 47.6298, lng: 13.0023 },
  });
  formulaName = await createHandler(t, {
    name: '=SUM(A1)',
    phone: '-5',
    type: '@T',
    address: '+1 Hinterhof',
    gps: { lat: -33.8688, lng: -151.2093 },
  });
  bare = await createHandler(t, { name: 'Ohne Position', phone: '0171 55', available: false });
  await createHandler(t, {
    name: 'Jürgen Größmann & Söhne <Jagd>',
    phone: '05192 "123"',
    address: 'Straße 1, "Hinterhaus"',
  });
  const now = new Date();
  await t.app.db.handlers.collection.insertOne({
    ...CONTROL,
    nameSort: 'zeile',
    available: true,
    createdAt: now,
    updatedAt: now,
  });
});
afterAll(() => t.close());

const exportAs = (query: string, as = t.viewer) =>
  t.request({ method: 'GET', url: `/api/users/export${query}`, as });

/** A cell's text (these cells are strings; anything else fails the comparison that follows). */
const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

async function jsonExport(): Promise<Handler[]> {
  return (await exportAs('?format=json')).json<{ data: Handler[] }>().data;
}

async function xlsxExport(query = '?format=xlsx') {
  const res = await exportAs(query);
  expect(res.statusCode).toBe(200);
  const workbook = await loadWorkbook(res.rawPayload);
  expect(workbook.worksheets.map((s) => s.name)).toEqual(['Hundeführer']);
  return sheetCells(workbook.worksheets[0]!);
}

const row = (rows: ExcelJS.Cell[][], h: Handler) => rows.find((r) => r[0]!.value === h._id)!;

describe('GET /api/users/export?format=xlsx', () => {
  it('is an XLSX download with a dated file name, not cached', async () => {
    const res = await exportAs('?format=xlsx');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="handlers-${day}.xlsx"`);
    expect(res.headers['cache-control']).toBe('no-store');
    // A ZIP archive (local file header), as every XLSX file is.
    expect(res.rawPayload.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
  });

  it('has the CSV header row and one row per handler, in the order of the JSON export', async () => {
    const rows = await xlsxExport();
    const handlers = await jsonExport();
    expect(handlers).toHaveLength(5);
    expect(rows).toHaveLength(1 + handlers.length);
    expect(rows[0]!.map((c) => c.value)).toEqual([...EXPORT_CSV_COLUMNS]);
    expect(rows[0]!.every((c) => c.type === ValueType.String && c.font?.bold)).toBe(true);
    expect(rows.slice(1).map((r) => r[0]!.value)).toEqual(handlers.map((h) => h._id));
  });

  it('writes every value of the JSON export as a typed cell, missing values as empty cells', async () => {
    const rows = await xlsxExport();
    const typed = (cell: ExcelJS.Cell) => ({ type: cell.type, value: cell.value });
    const text = (value: string) => ({ type: ValueType.String, value });
    const number = (value: number) => ({ type: ValueType.Number, value });
    const empty = { type: ValueType.Null, value: null };
    const date = (iso: string) => ({ type: ValueType.Date, value: new Date(iso) });
    for (const h of await jsonExport()) {
      if (h.name === CONTROL.name) continue; // see the ST_Xstring test below
      const cells = row(rows, h);
      expect(cells.map(typed)).toEqual([
        text(h._id),
        text(h.name),
        h.address ? text(h.address) : empty,
        text(h.phone),
        h.type ? text(h.type) : empty,
        { type: ValueType.Boolean, value: h.available },
        h.availableUntil ? date(h.availableUntil) : empty,
        h.availabilityConfirmedAt ? date(h.availabilityConfirmedAt) : empty,
        h.gps ? number(h.gps.lat) : empty,
        h.gps ? number(h.gps.lng) : empty,
        date(h.createdAt),
        date(h.updatedAt),
      ]);
      // Shown as date and time, not as a day count.
      for (const at of [7, 10, 11]) expect(cells[at]!.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    }
  });

  it('keeps a phone number as text, exactly as entered and without an apostrophe', async () => {
    const phone = row(await xlsxExport(), withPhone)[3]!;
    expect(phone.type).toBe(ValueType.String);
    expect(phone.value).toBe('+49 8652 987654');
    expect(phone.text).toBe('+49 8652 987654');
  });

  it('writes text starting with =, +, -, @ as plain strings, and no cell anywhere as a formula', async () => {
    const rows = await xlsxExport();
    const cells = row(rows, formulaName);
    expect([cells[1], cells[2], cells[3], cells[4]].map((c) => [c!.type, c!.value])).toEqual([
      [ValueType.String, '=SUM(A1)'],
      [ValueType.String, '+1 Hinterhof'],
      [ValueType.String, '-5'],
      [ValueType.String, '@T'],
    ]);
    for (const cell of rows.flat()) {
      expect(cell.type).not.toBe(ValueType.Formula);
      expect(cell.formula).toBeUndefined();
    }
  });

  it('keeps unavailable handlers and handlers without position or address', async () => {
    const cells = row(await xlsxExport(), bare);
    expect(cells.map((c) => c.value)).toEqual([
      bare._id,
      'Ohne Position',
      null,
      '0171 55',
      null,
      false,
      null,
      new Date(bare.availabilityConfirmedAt!),
      null,
      null,
      new Date(bare.createdAt),
      new Date(bare.updatedAt),
    ]);
  });

  it('keeps characters XML cannot carry as ST_Xstring escapes that Excel decodes, nothing stripped', async () => {
    const rows = await xlsxExport();
    const cells = rows.find((r) => textOf(r[1]!.value).startsWith('Zeile'))!;
    // As stored in the file: CR and control characters escaped, a literal escape's underscore too.
    expect(cells.slice(1, 4).map((c) => c.value)).toEqual([
      'Zeile_x000D_\nUmbruch_x0007_Glocke_x001B_Esc',
      'Hof\tTor _xFFFF_',
      'Durchwahl _x005F_x0041_ bleibt',
    ]);
    // As Excel shows it: exactly the stored text.
    expect(cells.slice(1, 4).map((c) => decodeXstring(textOf(c.value)))).toEqual([
      CONTROL.name,
      CONTROL.address,
      CONTROL.phone,
    ]);
  });

  it('keeps umlauts, ß, quotes, & and < as they are', async () => {
    const rows = await xlsxExport();
    const cells = rows.find((r) => textOf(r[1]!.value).startsWith('Jürgen'))!;
    expect(cells.slice(1, 4).map((c) => c.value)).toEqual([
      'Jürgen Größmann & Söhne <Jagd>',
      'Straße 1, "Hinterhaus"',
      '05192 "123"',
    ]);
  });

  it('is allowed to viewers and admins, and to nobody without a token', async () => {
    expect((await exportAs('?format=xlsx', t.viewer)).statusCode).toBe(200);
    expect((await exportAs('?format=xlsx', t.admin)).statusCode).toBe(200);
    expectDirectoryError(
      await t.request({ method: 'GET', url: '/api/users/export?format=xlsx' }),
      401,
    );
  });

  it('ignores delimiter, as the JSON export does', async () => {
    const plain = (rows: ExcelJS.Cell[][]) => rows.map((r) => r.map((c) => c.value));
    expect(plain(await xlsxExport('?format=xlsx&delimiter=semicolon'))).toEqual(
      plain(await xlsxExport()),
    );
    expect((await exportAs('?format=json&delimiter=semicolon')).statusCode).toBe(200);
  });

  it.each(['?format=XLSX', '?format=xls', '?format=excel', '?format=xlsx&delimiter=tab'])(
    'answers 400 to %s',
    async (query) => {
      expectDirectoryError(await exportAs(query), 400, /^Ungültige Anfrage/);
    },
  );

  it('exports an empty directory as the header row alone', async () => {
    const empty = await createTestApp();
    try {
      const res = await empty.request({
        method: 'GET',
        url: '/api/users/export?format=xlsx',
        as: empty.viewer,
      });
      expect(res.statusCode).toBe(200);
      const rows = sheetCells((await loadWorkbook(res.rawPayload)).worksheets[0]!);
      expect(rows.map((r) => r.map((c) => c.value))).toEqual([[...EXPORT_CSV_COLUMNS]]);
    } finally {
      await empty.close();
    }
  });

  it('continues on a next sheet, with its own header row, when a sheet is full', async () => {
    // Excel's limit is 1,048,575 rows a sheet; 2 here shows the same code path.
    const workbook = await loadWorkbook(await collect(exportXlsx(t.app.db, {}, 2)));
    expect(workbook.worksheets.map((s) => s.name)).toEqual([
      'Hundeführer',
      'Hundeführer 2',
      'Hundeführer 3',
    ]);
    const sheets = workbook.worksheets.map((s) => sheetCells(s));
    expect(sheets.map((rows) => rows.length)).toEqual([3, 3, 2]);
    for (const rows of sheets)
      expect(rows[0]!.map((c) => c.value)).toEqual([...EXPORT_CSV_COLUMNS]);
    const ids = sheets.flatMap((rows) => rows.slice(1).map((r) => r[0]!.value));
    expect(ids).toEqual((await jsonExport()).map((h) => h._id));
  });

  it('stops reading the database while nobody reads the file, and closes the cursor when the reader goes away', async () => {
    // Command monitoring shows the export's find, getMore and killCursors as the server sees them.
    const server = withDatabase(testMongoUri(), '');
    const big = await createTestApp({
      mongodbUri: `${server}${server.includes('?') ? '&' : '?'}monitorCommands=true`,
    });
    try {
      const COUNT = 10_000; // 10 batches of EXPORT_BATCH_SIZE
      await big.app.db.handlers.insertMany(
        Array.from({ length: COUNT }, (_, i) => ({
          name: `Hundeführer ${i}`,
          phone: `+49 30 ${1_000_000 + i}`,
          address: `Waldstraße ${i}, ${'x'.repeat(100)}`,
        })),
      );
      const commands: string[] = [];
      big.app.db.connection
        .getClient()
        .on('commandStarted', (event: { commandName: string }) => commands.push(event.commandName));
      const getMores = () => commands.filter((name) => name === 'getMore').length;

      const file = exportXlsx(big.app.db);
      // Unread, the export waits for its reader instead of holding the directory in memory: its
      // reads stop (no getMore for 300 ms after the first second; a loaded machine may take
      // longer to get there) with most of the directory unread.
      await sleep(1_000);
      let before = -1;
      for (let waited = 0; getMores() !== before && waited < 5_000; waited += 300) {
        before = getMores();
        await sleep(300);
      }
      expect(commands).toContain('find');
      expect(getMores()).toBe(before);
      expect(getMores()).toBeLessThan(5);

      file.destroy();
      for (let waited = 0; !commands.includes('killCursors') && waited < 5_000; waited += 50)
        await sleep(50);
      expect(commands).toContain('killCursors');
      expect(getMores()).toBe(before);
    } finally {
      await big.close();
    }
  });
});
