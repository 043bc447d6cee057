import type { Readable } from 'node:stream';
import { EXPORT_CSV_COLUMNS } from '@dogshop/contracts/handler-directory';
import ExcelJS from 'exceljs';

/** Reads an XLSX file back with ExcelJS (its regular, non-streaming reader). */
export async function loadWorkbook(file: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  // ExcelJS types its Buffer as an ArrayBuffer; a Node Buffer is what it reads.
  await workbook.xlsx.load(file as unknown as Parameters<ExcelJS.Xlsx['load']>[0]);
  return workbook;
}

/** The whole of a stream, for exports produced without a request. */
export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Every cell of every row of a sheet, a cell per export column, empty cells included. */
export function sheetCells(
  sheet: ExcelJS.Worksheet,
  columns: number = EXPORT_CSV_COLUMNS.length,
): ExcelJS.Cell[][] {
  const rows: ExcelJS.Cell[][] = [];
  for (let r = 1; r <= sheet.rowCount; r += 1) {
    const row = sheet.getRow(r);
    rows.push(Array.from({ length: columns }, (_, c) => row.getCell(c + 1)));
  }
  return rows;
}

/**
 * What Excel shows for a cell value: ECMA-376 ST_Xstring escapes (`_xHHHH_`) decoded, as Excel
 * does. ExcelJS's reader decodes them only in shared strings, not in the inline values the
 * export writes.
 */
export const decodeXstring = (text: string) =>
  text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
