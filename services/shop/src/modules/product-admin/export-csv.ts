// The CSV export of the back office's products: the list's filter, by id, streamed batch by
// batch; the import (import.ts) reads the same columns back.
import type { Readable } from 'node:stream';
import { PRODUCT_CSV_COLUMNS, type ProductCsvColumn } from '@dogshop/contracts/shop';
import { csvStream, neutraliseFormula, type CsvDelimiter } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { productBatches, type AdminProductRow, type ProductFilter } from './repository.js';

/** Each column's cell; texts from people neutralised against formula injection. */
const CELLS: Record<ProductCsvColumn, (p: AdminProductRow) => string> = {
  id: (p) => String(p.id),
  name: (p) => neutraliseFormula(p.name),
  description: (p) => neutraliseFormula(p.description),
  price: (p) => p.price,
  category_id: (p) => String(p.category_id),
  category_name: (p) => neutraliseFormula(p.category_name),
  stock: (p) => String(p.stock),
  active: (p) => String(p.active),
};

export function exportProductsCsv(
  db: Db,
  filter: ProductFilter,
  delimiter: CsvDelimiter,
): Readable {
  async function* rows(): AsyncGenerator<string[][]> {
    for await (const batch of productBatches(db, filter))
      yield batch.map((product) => PRODUCT_CSV_COLUMNS.map((column) => CELLS[column](product)));
  }
  return csvStream([...PRODUCT_CSV_COLUMNS], rows(), delimiter);
}
