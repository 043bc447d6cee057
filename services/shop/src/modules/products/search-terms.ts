// How a search term becomes SQL on `products p`: the storefront's search (products/repository.ts)
// and the back office's `q` (product-admin/repository.ts) match terms the same way. The
// storefront reads terms of TOKEN_TERM_LENGTH or more from its postings (tokensContaining, then
// per unit of price, active products only); the back office, which lists inactive products too,
// uses termCondition.
import { Prisma } from '../../generated/prisma/client.js';
import { likeLiteral } from '../../domain/text.js';

/** The `LIKE` pattern of a term: the term anywhere, its `%`, `_` and `\` taken literally. */
export const likePattern = (term: string): string => `%${likeLiteral(term)}%`;

/**
 * What a term means, given its pattern (likePattern) as SQL (a bound parameter, or where the
 * statement keeps its values): a case-folded substring of name or description, `search_text`
 * being both lower-cased (lower() in SQL, the column's own case folding, so exactly ILIKE). Cheap
 * per row; no index serves it.
 */
export const textHolds = (pattern: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`p.search_text LIKE lower(${pattern})`;

/** Terms this long or longer are looked up among the tokens (trigrams need three characters). */
export const TOKEN_TERM_LENGTH = 3;

/**
 * The condition a product meets when it holds the term, through an index where one serves it. A
 * term holds no whitespace, so the products it matches are exactly those holding one of the
 * vocabulary's tokens that contain it; from three characters that lookup is a trigram scan of the
 * tokens, and `&&` one exact GIN scan over the products' tokens (migration
 * *_product_search_tokens), so the condition is the term's meaning (textHolds) and nothing needs
 * testing after it. Shorter terms have no trigram to look up: textHolds itself.
 */
export function termCondition(term: string, pattern: Prisma.Sql): Prisma.Sql {
  if ([...term].length < TOKEN_TERM_LENGTH) return textHolds(pattern);
  return Prisma.sql`search_tokens(p.search_text) && ${tokensContaining(pattern)}`;
}

/**
 * The vocabulary's tokens that contain a term of TOKEN_TERM_LENGTH or more, given its pattern,
 * as a `text[]`: a trigram scan of `product_search_tokens`. The products holding one of them are
 * those the term matches (termCondition; the storefront's postings, products/repository.ts).
 */
export const tokensContaining = (pattern: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`ARRAY(SELECT token FROM product_search_tokens WHERE token LIKE lower(${pattern}))`;
