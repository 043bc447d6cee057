// The XLSX export, for people who open the file in a spreadsheet: typed cells (text, numbers,
// booleans, dates) and never a formula, so it needs no apostrophe guard like the CSV. ExcelJS's
// streaming writer takes one row at a time from the same cursor as the other formats and each row
// is committed at once, so memory stays flat. Its columns are the field table's (fields.ts's
// EXPORT_COLUMNS), the same as the CSV's.
import { PassThrough, type Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Handler } from '@dogshop/contracts/handler-directory';
import type { DirectoryDb } from '../../db/connection.js';
import type { Filter } from './repository.js';
import { handlerViews } from './export-json.js';
import { loadExcelJS, type ExcelJS } from './exceljs.js';
import { EXPORT_COLUMNS, type CellKind, type CellValue } from './fields.js';

/** Excel opens at most 1,048,576 rows a sheet, the header included; more handlers go on to a next sheet. */
export const XLSX_MAX_ROWS_PER_SHEET = 1_048_575;

const SHEET_NAME = 'Hundeführer';
/** Timestamps are written in UTC, like the other formats. */
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

// Characters XML 1.0 cannot carry (ExcelJS would silently drop them, and U+FFFE/U+FFFF would
// make the file unreadable), CR (XML readers turn it into LF), and the underscore that starts a
// literal "_xHHHH_".
// eslint-disable-next-line no-control-regex
const XSTRING_ESCAPE = /[\x00-\x08\x0B-\x1F\x7F\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/g;

/**
 * Text as an ECMA-376 ST_Xstring (22.9.2.19), the type of a cell value: those characters become
 * `_xHHHH_`, which Excel turns back into the character, so nothing is lost. Any other text, by
 * far the most, stays exactly as it is.
 */
export const xlsxText = (text: string): string =>
  text.replace(
    XSTRING_ESCAPE,
    (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
  );

const missing = (value: CellValue): value is null | undefined =>
  value === undefined || value === null;

/**
 * A cell of each kind as an ExcelJS value. Plain strings become string cells: ExcelJS writes a
 * formula only for a `{formula}` object, so text starting with `=` stays text. Missing values
 * are empty cells.
 */
const XLSX_CELL: Record<CellKind, (value: CellValue) => ExcelJS.CellValue> = {
  text: (value) => (missing(value) ? null : xlsxText(String(value))),
  id: (value) => (missing(value) ? null : value),
  number: (value) => (missing(value) ? null : value),
  boolean: (value) => (missing(value) ? null : value),
  // The API's ISO 8601 text (UTC, milliseconds) back to the instant it was written from.
  dateTime: (value) => (missing(value) ? null : new Date(String(value))),
};

/** One row, a cell per column of EXPORT_COLUMNS. */
const xlsxRow = (handler: Handler): ExcelJS.CellValue[] =>
  EXPORT_COLUMNS.map((column) => XLSX_CELL[column.kind](column.value(handler)));

function addSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, number: number) {
  const sheet = workbook.addWorksheet(number === 1 ? SHEET_NAME : `${SHEET_NAME} ${number}`, {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = EXPORT_COLUMNS.map((column) => ({
    width: column.width,
    ...(column.kind === 'dateTime' ? { style: { numFmt: DATE_TIME_FORMAT } } : {}),
  }));
  const header = sheet.addRow(EXPORT_COLUMNS.map((column) => column.header));
  header.font = { bold: true };
  header.commit();
  return sheet;
}

/**
 * Rows written in one go (about 64 kB of sheet XML): at 0.1–0.2 ms a row in ExcelJS, other
 * requests never wait long, and the ZIP writer gets its turn.
 */
const ROWS_PER_SLICE = 100;

/** The legacy (readable-stream 2) writable that archiver reads a ZIP entry from. */
type EntryInput = NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } };

/**
 * ExcelJS (4.4.0) hands a sheet's XML on to archiver's input stream for the ZIP entry without
 * waiting for it, so when compression or the client is slower than the database, rows would
 * pile up there: 51 MB of buffers for 100,000 handlers. This finds that stream (not public
 * API: the export's memory test fails if it ever stops finding it).
 */
function entryInput(sheet: ExcelJS.Worksheet): EntryInput | undefined {
  const buffer = (sheet as unknown as { stream?: { pipes?: unknown } }).stream;
  return Array.isArray(buffer?.pipes) ? (buffer.pipes[0] as EntryInput | undefined) : undefined;
}

/** What to wait for before writing more rows, if anything. */
function backlog(sheet: ExcelJS.Worksheet, output: PassThrough): NodeJS.EventEmitter | undefined {
  const input = entryInput(sheet);
  if (input?._writableState?.needDrain) return input;
  // Before archiver starts reading the sheet (and as a fallback), the client's side.
  if (output.writableNeedDrain) return output;
  return undefined;
}

/**
 * Between two slices of rows: gives the event loop a turn, then waits while the ZIP writer or the
 * client is behind. False when the client has gone away.
 */
async function caughtUp(sheet: ExcelJS.Worksheet, output: PassThrough): Promise<boolean> {
  await nextTurn();
  for (;;) {
    if (output.destroyed) return false;
    const full = backlog(sheet, output);
    if (!full) return true;
    await new Promise<void>((resolve) => {
      const done = () => {
        full.off('drain', done);
        output.off('close', done);
        resolve();
      };
      full.on('drain', done);
      output.on('close', done);
    });
  }
}

async function writeWorkbook(
  db: DirectoryDb,
  filter: Filter,
  output: PassThrough,
  rowsPerSheet: number,
) {
  const ExcelJS = await loadExcelJS();
  // Inline strings: a shared-string table would hold every distinct text until the end.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  let sheets = 1;
  let sheet = addSheet(workbook, sheets);
  let rowsInSheet = 0;
  let rows = 0;
  // Leaving the loop early closes the cursor.
  for await (const handlers of handlerViews(db, filter)) {
    for (const handler of handlers) {
      if (rowsInSheet === rowsPerSheet) {
        sheet.commit();
        sheets += 1;
        sheet = addSheet(workbook, sheets);
        rowsInSheet = 0;
      }
      sheet.addRow(xlsxRow(handler)).commit();
      rowsInSheet += 1;
      rows += 1;
      if (rows % ROWS_PER_SLICE === 0 && !(await caughtUp(sheet, output))) return;
    }
    if (output.destroyed) return;
  }
  await workbook.commit();
}

/**
 * Every handler matching `filter`, by name, as an XLSX workbook, streamed. `rowsPerSheet` is
 * Excel's limit; tests lower it to see the next sheet begin.
 */
export function exportXlsx(
  db: DirectoryDb,
  filter: Filter = {},
  rowsPerSheet = XLSX_MAX_ROWS_PER_SHEET,
): Readable {
  const output = new PassThrough();
  // A failing cursor destroys the output stream, which aborts the response.
  writeWorkbook(db, filter, output, rowsPerSheet).catch((error: unknown) =>
    output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
