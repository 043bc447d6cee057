/**
 * The key lists are ordered by, stored beside the name and indexed: case-insensitive, umlauts
 * and other accents sorted with their base letter and ß as "ss" (German dictionary order,
 * DIN 5007-1). A stored key sorts the same on every MongoDB, including ones without collations.
 */
export function nameSortKey(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss').trim();
}
