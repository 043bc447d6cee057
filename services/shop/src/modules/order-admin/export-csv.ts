// The CSV export of the back office's orders: the list's filter, streamed batch by batch.
import type { Readable } from 'node:stream';
import { ADMIN_ORDER_EXPORT_COLUMNS } from '@dogshop/contracts/shop';
import { csvStream, neutraliseFormula, type CsvDelimiter } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { orderBatches, type AdminOrderRow, type OrderFilter } from './repository.js';

/** One row per order in ADMIN_ORDER_EXPORT_COLUMNS' order; texts from people neutralised. */
const row = (order: AdminOrderRow): string[] => [
  String(order.id),
  order.created_at.toISOString(),
  order.status,
  neutraliseFormula(order.customer_name),
  neutraliseFormula(order.customer_email),
  neutraliseFormula(order.customer_phone),
  order.customer_id === null ? '' : String(order.customer_id),
  String(Number(order.total_amount)),
  String(order.items),
];

export function exportOrdersCsv(db: Db, filter: OrderFilter, delimiter: CsvDelimiter): Readable {
  async function* rows(): AsyncGenerator<string[][]> {
    for await (const batch of orderBatches(db, filter)) yield batch.map(row);
  }
  return csvStream([...ADMIN_ORDER_EXPORT_COLUMNS], rows(), delimiter);
}
