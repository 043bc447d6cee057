// ExcelJS, loaded when a workbook is first written or read. It takes about half a second to load,
// more than the rest of the service together, and most processes never see a workbook.
import type ExcelJS from 'exceljs';

export type { ExcelJS };

export const loadExcelJS = async (): Promise<typeof ExcelJS> => (await import('exceljs')).default;
