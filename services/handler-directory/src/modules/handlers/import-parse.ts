// Reading an import file into a table: its header row and its data rows' cells, each row with
// its number in the file (the header row is the first row that has a value, usually 1). What a
// cell means for a handler is import.ts's; here only how the two formats store it.
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { IMPORT_MAX_ROWS } from '@dogshop/contracts/handler-directory';
import { HttpError, badRequest, readCsvRecords } from '@dogshop/service-kit';
import { IMPORT_MESSAGES } from '../../messages.js';
import { loadExcelJS, type ExcelJS } from './exceljs.js';

export type ImportFormat = 'csv' | 'xlsx';

/**
 * A cell as the file has it: null when empty; text (every CSV cell); an XLSX cell's number,
 * boolean or date; or an XLSX cell that yields no value: a formula (never evaluated, its cached
 * result is not taken either) or an error value such as #NV.
 */
export type Cell = null | string | number | boolean | Date | { unreadable: 'formula' | 'error' };

export interface DataRow {
  /** Its number in the file: the CSV record, or the sheet's row. */
  row: number;
  cells: Cell[];
}

export interface ImportTable {
  format: ImportFormat;
  /** The header row's cells as text (trimmed); empty for a cell without text. */
  header: string[];
  /** The data rows after the header, without blank ones. */
  rows: DataRow[];
}

const tooLarge = () => new HttpError(413, IMPORT_MESSAGES.tooLarge);

const isBlank = (cells: readonly Cell[]) =>
  cells.every((cell) => cell === null || (typeof cell === 'string' && cell.trim() === ''));

/** Collects data rows after the header (the first non-blank row); 413 beyond IMPORT_MAX_ROWS. */
class TableBuilder {
  header: string[] | undefined;
  readonly rows: DataRow[] = [];

  add(row: number, cells: Cell[]): void {
    if (isBlank(cells)) return;
    if (!this.header) {
      this.header = cells.map((cell) => (typeof cell === 'string' ? cell.trim() : ''));
      return;
    }
    if (this.rows.length === IMPORT_MAX_ROWS) throw tooLarge();
    this.rows.push({ row, cells });
  }

  table(format: ImportFormat): ImportTable {
    if (!this.header) throw badRequest(IMPORT_MESSAGES.noHeader);
    return { format, header: this.header, rows: this.rows };
  }
}

export function readImportFile(bytes: Buffer, format: ImportFormat): Promise<ImportTable> {
  return format === 'csv' ? readCsv(bytes) : readXlsx(bytes);
}

// ---------------------------------------------------------------------------------------------
// CSV

/** RFC 4180 records (quotes, doubled quotes and line breaks in quoted cells), by service-kit. */
async function readCsv(bytes: Buffer): Promise<ImportTable> {
  const builder = new TableBuilder();
  await readCsvRecords(
    bytes,
    { notUtf8: IMPORT_MESSAGES.notUtf8, unreadable: IMPORT_MESSAGES.unreadableCsv },
    (record, cells) => builder.add(record, cells),
  );
  return builder.table('csv');
}

// ---------------------------------------------------------------------------------------------
// XLSX

const SHEET_NAME = 'Hundeführer';
/** The export's continuation sheets, which it starts only beyond IMPORT_MAX_ROWS. */
const CONTINUATION_SHEET = /^Hundeführer \d+$/;

/** ECMA-376 ST_Xstring escapes (`_xHHHH_`, as the export writes them) back to characters. */
const decodeXstring = (text: string) =>
  text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

type RichText = { richText: Array<{ text: string }> };
const richText = (value: RichText) => value.richText.map((run) => run.text).join('');

function xlsxCell(ValueType: typeof ExcelJS.ValueType, cell: ExcelJS.Cell): Cell {
  const value = cell.value;
  switch (cell.type) {
    case ValueType.Number:
    case ValueType.Boolean:
    case ValueType.Date:
      return value as number | boolean | Date;
    case ValueType.String:
      return decodeXstring(value as string);
    case ValueType.RichText:
      return decodeXstring(richText(value as RichText));
    case ValueType.Hyperlink: {
      const shown = (value as ExcelJS.CellHyperlinkValue).text as string | RichText;
      return decodeXstring(typeof shown === 'string' ? shown : richText(shown));
    }
    case ValueType.Formula:
      return { unreadable: 'formula' };
    case ValueType.Error:
      return { unreadable: 'error' };
    default:
      // Empty, or part of a merged range (only its first cell holds the value).
      return null;
  }
}

/**
 * What the streaming reader's worksheets carry beside what ExcelJS's types declare: the name, and
 * what the rows are read from — for a sheet unzipped to a temporary file first, that file's
 * stream.
 */
type SheetReader = AsyncIterable<ExcelJS.Row> & {
  name: string;
  iterator?: { path?: unknown; destroy?: () => void };
};

/**
 * Removes the temporary file a sheet was read from (ExcelJS removes it only once the sheet has
 * been read to its end; a refused import stops before), so it does not stay until the process
 * exits.
 */
async function dropTemporaryFile(sheet: SheetReader | undefined): Promise<void> {
  const file = sheet?.iterator;
  if (typeof file?.path !== 'string' || path.dirname(file.path) !== os.tmpdir()) return;
  file.destroy?.();
  await rm(file.path, { force: true });
}

const rowCells = (ValueType: typeof ExcelJS.ValueType, row: ExcelJS.Row): Cell[] =>
  Array.from({ length: row.cellCount }, (_, i) => xlsxCell(ValueType, row.getCell(i + 1)));

/**
 * The sheet named like the export's (else the workbook's first), read row by row with ExcelJS's
 * streaming reader: the rows are taken as the sheet's XML is unzipped and parsed, and the import
 * is refused (413) at the row past IMPORT_MAX_ROWS, without reading the rest of the workbook.
 * A continuation sheet of the export with rows below its header is more rows than an import may
 * have: 413 too. (A sheet stored before the shared strings is unzipped to a temporary file by
 * ExcelJS first; the XML is parsed from there, still row by row.)
 */
async function readXlsx(bytes: Buffer): Promise<ImportTable> {
  const ExcelJS = await loadExcelJS();
  const cells = (row: ExcelJS.Row) => rowCells(ExcelJS.ValueType, row);
  const input = Readable.from([bytes]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Number formats tell dates from numbers.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const builder = new TableBuilder();
  let read = false;
  let current: SheetReader | undefined;
  try {
    for await (const sheet of reader as AsyncIterable<SheetReader>) {
      current = sheet;
      if (CONTINUATION_SHEET.test(sheet.name)) {
        let rows = 0;
        for await (const row of sheet) if (!isBlank(cells(row)) && ++rows > 1) throw tooLarge();
        continue;
      }
      if (read || !isImportSheet(reader, sheet.name)) continue;
      read = true;
      for await (const row of sheet) builder.add(row.number, cells(row));
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest(IMPORT_MESSAGES.unreadableXlsx);
  } finally {
    input.destroy();
    await dropTemporaryFile(current);
  }
  if (!read) throw badRequest(IMPORT_MESSAGES.noHeader);
  return builder.table('xlsx');
}

/** The export's sheet, or, in a workbook without one, its first. */
function isImportSheet(reader: ExcelJS.stream.xlsx.WorkbookReader, name: string): boolean {
  if (name === SHEET_NAME) return true;
  // The workbook's part, once read (ExcelJS types the reader as a Workbook; it is not one).
  const model = reader.model as { sheets?: Array<{ name: string }> } | undefined;
  const names = (model?.sheets ?? []).map((sheet) => sheet.name);
  return !names.includes(SHEET_NAME);
}
