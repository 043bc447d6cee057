// A price as a person types it into a field ("39.9", "39,90") and as the field shows it.

/** Up to 99,999,999.99: at most eight digits before the point, two after (comma or point). */
const AMOUNT = /^\d{1,8}(?:[.,]\d{1,2})?$/;

/** The amount typed, or undefined when it is not one the API takes. */
export function parsePrice(text: string): number | undefined {
  const trimmed = text.trim();
  return AMOUNT.test(trimmed) ? Number(trimmed.replace(',', '.')) : undefined;
}

/** The field's text for an amount: two decimals, no grouping (typed back as it is shown). */
export const priceInput = (price: number) => price.toFixed(2);
