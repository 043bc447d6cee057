/**
 * Text folded for comparison: case-insensitive, umlauts and other accents with their base letter
 * and ß as "ss" (German dictionary order, DIN 5007-1).
 */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss');
}

/**
 * The key lists are ordered by, stored beside the name and indexed (foldText, trimmed). A stored
 * key sorts the same on every MongoDB, including ones without collations.
 */
export const nameSortKey = (name: string): string => foldText(name).trim();

/**
 * What the admin list's `q` searches, stored beside the handler: its name, address and phone,
 * folded, one per line (a search never spans two, as `q` has no line break that matches).
 */
export const searchTextOf = (handler: { name: string; address?: string; phone: string }) =>
  [handler.name, handler.address ?? '', handler.phone].map(foldText).join('\n');
