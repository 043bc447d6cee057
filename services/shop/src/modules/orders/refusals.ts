import { HttpError } from '@dogshop/service-kit';
import { Decimal } from '../../domain/money.js';
import { MAX_ORDER_TOTAL } from './order-lines.js';
import type { CatalogueEntry } from './repository.js';

/** Why the catalogue rules refused an order: the `reason` of `orders_refused_total`. */
export type RefusalReason =
  'unknown_product' | 'unavailable' | 'price_changed' | 'out_of_stock' | 'total_too_high';

/** An order the rules refused: the client's 400 or 409, and the reason the metrics count. */
export class OrderRefused extends HttpError {
  constructor(
    readonly reason: RefusalReason,
    statusCode: 400 | 409,
    message: string,
  ) {
    super(statusCode, message);
  }
}

export const unknownProduct = (id: number) =>
  new OrderRefused('unknown_product', 400, `product ${id} does not exist`);

export const unavailable = (product: Pick<CatalogueEntry, 'id' | 'name'>) =>
  new OrderRefused('unavailable', 400, `product ${product.id} (${product.name}) is not available`);

export const priceConflict = (
  product: Pick<CatalogueEntry, 'id' | 'name' | 'price'>,
  sent: number,
) =>
  new OrderRefused(
    'price_changed',
    409,
    `price of product ${product.id} (${product.name}) is ${product.price.toFixed(2)}, not ${new Decimal(sent).toFixed(Math.max(2, new Decimal(sent).decimalPlaces()))}`,
  );

export const outOfStock = (
  product: Pick<CatalogueEntry, 'id' | 'name'> & { stock: number },
  requested: number,
) =>
  new OrderRefused(
    'out_of_stock',
    409,
    `insufficient stock for product ${product.id} (${product.name}): ${product.stock} available, ${requested} requested`,
  );

export const totalTooHigh = (total: Decimal) =>
  new OrderRefused(
    'total_too_high',
    400,
    `order total ${total.toFixed(2)} exceeds the maximum of ${MAX_ORDER_TOTAL.toFixed(2)}`,
  );
