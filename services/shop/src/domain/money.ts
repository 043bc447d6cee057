import { Prisma } from '../generated/prisma/client.js';

export const Decimal = Prisma.Decimal;
export type Decimal = Prisma.Decimal;

/** Renders an exact amount as a JSON number with at most two decimals. */
export function toMoneyNumber(amount: Decimal | number | string): number {
  return Number(new Decimal(amount).toFixed(2));
}

/**
 * True when a client-sent price is exactly the catalogue's amount (19.99 matches 19.99; 19.994
 * does not: it is not a price in cents at all).
 */
export function sameCents(catalogue: Decimal, sent: number): boolean {
  return Number.isFinite(sent) && new Decimal(sent).equals(catalogue);
}

/**
 * A client-sent amount as the exact text of a `numeric(…, 2)` ("19.9" → "19.90"), or null when
 * it has more than two decimals. Judged on the number's shortest decimal form (JSON 19.90 is
 * 19.9), not on `multipleOf: 0.01`, which binary floats get wrong for valid prices.
 */
export function centsText(amount: number): string | null {
  return /^\d+(\.\d{1,2})?$/.test(String(amount)) ? amount.toFixed(2) : null;
}
