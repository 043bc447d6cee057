import { Decimal } from '../../domain/money.js';

/** The largest amount the API renders (`Money` in the contract); a bigger order is refused. */
export const MAX_ORDER_TOTAL = new Decimal('99999999.99');

export interface SentLine {
  product_id: number;
  quantity: number;
  price: number;
}

export interface MergedLine {
  productId: number;
  quantity: number;
  /** Every price the client sent for this product; each must match the catalogue. */
  sentPrices: number[];
}

/**
 * One line per product, quantities summed, in ascending product id: rows are locked in that
 * order, so two orders for overlapping products can never wait on each other in a cycle.
 */
export function mergeLines(items: readonly SentLine[]): MergedLine[] {
  const byProduct = new Map<number, MergedLine>();
  for (const item of items) {
    const line = byProduct.get(item.product_id);
    if (line) {
      line.quantity += item.quantity;
      line.sentPrices.push(item.price);
    } else {
      byProduct.set(item.product_id, {
        productId: item.product_id,
        quantity: item.quantity,
        sentPrices: [item.price],
      });
    }
  }
  return [...byProduct.values()].sort((a, b) => a.productId - b.productId);
}

export const lineTotal = (unitPrice: Decimal, quantity: number): Decimal => unitPrice.mul(quantity);

export const orderTotal = (lineTotals: readonly Decimal[]): Decimal =>
  lineTotals.reduce((sum, amount) => sum.add(amount), new Decimal(0));
