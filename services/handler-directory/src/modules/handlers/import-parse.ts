// Reading an import file into a table: its header row and its data rows' cells, each row with
// its number in the file (the header row is the first row that has a value, usually 1). What a
// cell means for a handler is import.ts's; here only how the two formats store it.
import { Readable } from 'node:stream';
import { IMPORT_MAX_ROWS } from '@dogshop/contracts/handler-directory';
import { HttpError, badRequest } from '@dogshop/service-kit';
import ExcelJS from 'exceljs';
import { parse } from 'fast-csv';
import { IMPORT_MESSAGES } from '../../messages.js';

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

/** Text handed to the parser at a time: fast-csv splits a whole piece into rows at once. */
const CSV_PIECE = 256 * 1024;

/** `;` when the header line has more semicolons than commas (the export's two delimiters). */
export function csvDelimiter(text: string): ',' | ';' {
  const end = text.indexOf('\n');
  const first = end === -1 ? text : text.slice(0, end);
  const count = (c: string) => first.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

function decodeUtf8(bytes: Buffer): string {
  try {
    // Strict: a file in another encoding is refused rather than read as garbled text.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badRequest(IMPORT_MESSAGES.notUtf8);
  }
}

/** RFC 4180 records (quotes, doubled quotes and line breaks in quoted cells) by fast-csv. */
async function readCsv(bytes: Buffer): Promise<ImportTable> {
  // TextDecoder drops a leading byte-order mark.
  const text = decodeUtf8(bytes);
  const pieces = function* () {
    for (let at = 0; at < text.length; at += CSV_PIECE) yield text.slice(at, at + CSV_PIECE);
  };
  const builder = new TableBuilder();
  const parser = parse<string[], string[]>({
    headers: false,
    delimiter: csvDelimiter(text),
    ignoreEmpty: false,
  });
  let record = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      parser.destroy();
      reject(error instanceof HttpError ? error : badRequest(IMPORT_MESSAGES.unreadableCsv));
    };
    parser
      .on('data', (cells: string[]) => {
        record += 1;
        try {
          builder.add(record, cells);
        } catch (error) {
          fail(error);
        }
      })
      .on('error', fail)
      .on('end', resolve);
    Readable.from(pieces()).on('error', fail).pipe(parser);
  });
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

function xlsxCell(cell: ExcelJS.Cell): Cell {
  const { ValueType } = ExcelJS;
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
 * The sheet named like the export's (else the workbook's first). A continuation sheet with rows
 * means more rows than an import may have: 413.
 */
async function readXlsx(bytes: Buffer): Promise<ImportTable> {
  const workbook = new ExcelJS.Workbook();
  try {
    // ExcelJS types its Buffer as an ArrayBuffer; a Node Buffer is what it reads.
    await workbook.xlsx.load(bytes as unknown as Parameters<ExcelJS.Xlsx['load']>[0]);
  } catch {
    throw badRequest(IMPORT_MESSAGES.unreadableXlsx);
  }
  const sheets = workbook.worksheets;
  const sheet = sheets.find((s) => s.name === SHEET_NAME) ?? sheets[0];
  if (!sheet) throw badRequest(IMPORT_MESSAGES.noHeader);
  if (sheets.some((s) => CONTINUATION_SHEET.test(s.name) && s.actualRowCount > 1)) {
    throw tooLarge();
  }
  const builder = new TableBuilder();
  for (let number = 1; number <= sheet.rowCount; number += 1) {
    const row = sheet.findRow(number);
    if (!row) continue;
    const cells: Cell[] = [];
    for (let column = 1; column <= row.cellCount; column += 1) {
      cells.push(xlsxCell(row.getCell(column)));
    }
    builder.add(number, cells);
  }
  return builder.table('xlsx');
}
