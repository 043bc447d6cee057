import { describe, expect, it } from '@jest/globals';
import type { OrderStatus } from '@dogshop/contracts/shop';
import { Decimal } from '../src/domain/money.js';
import { lineTotal, mergeLines, orderTotal } from '../src/modules/orders/order-lines.js';
import { judgeStatusChange, returnsStock } from '../src/modules/orders/order-status.js';

const STATUSES: OrderStatus[] = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'];

describe('order status life cycle', () => {
  const allowed = new Set([
    'pending>confirmed',
    'pending>cancelled',
    'confirmed>shipped',
    'confirmed>cancelled',
    'shipped>delivered',
  ]);
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('judges %s → %s', (from, to) => {
    const expected =
      from === to ? 'unchanged' : allowed.has(`${from}>${to}`) ? 'allowed' : 'refused';
    expect(judgeStatusChange(from, to)).toBe(expected);
  });

  it('makes delivered and cancelled final', () => {
    for (const from of ['delivered', 'cancelled'] as const) {
      expect(STATUSES.filter((to) => judgeStatusChange(from, to) === 'allowed')).toEqual([]);
    }
  });

  it('returns stock only on cancellation', () => {
    expect(STATUSES.filter(returnsStock)).toEqual(['cancelled']);
  });
});

describe('order lines', () => {
  it('merges lines of the same product, in ascending product id, keeping every sent price', () => {
    expect(
      mergeLines([
        { product_id: 7, quantity: 2, price: 1.5 },
        { product_id: 3, quantity: 1, price: 9 },
        { product_id: 7, quantity: 3, price: 1.4 },
      ]),
    ).toEqual([
      { productId: 3, quantity: 1, sentPrices: [9] },
      { productId: 7, quantity: 5, sentPrices: [1.5, 1.4] },
    ]);
  });

  it('computes totals exactly (3 × 19.99 + 39.90 = 99.87, 7 × 19.99 = 139.93)', () => {
    const total = orderTotal([
      lineTotal(new Decimal('19.99'), 3),
      lineTotal(new Decimal('39.90'), 1),
    ]);
    expect(total.toFixed(2)).toBe('99.87');
    // Floats get this one wrong (139.92999999999998).
    expect(19.99 * 7).not.toBe(139.93);
    expect(lineTotal(new Decimal('19.99'), 7).toFixed(2)).toBe('139.93');
    expect(orderTotal([]).toFixed(2)).toBe('0.00');
  });
});
