// How a search term becomes SQL on `products p`: the storefront's search (products/repository.ts)
// and the back office's `q` (product-admin/repository.ts) match terms the same way.
import { Prisma } from '../../generated/prisma/client.js';
import { likeLiteral } from '../../domain/text.js';

/** The `LIKE` pattern of a term: the term anywhere, its `%`, `_` and `\` taken literally. */
export const likePattern = (term: string): string => `%${likeLiteral(term)}%`;

/**
 * The condition a product meets when it holds the term, given the term's pattern (likePattern)
 * as SQL: a bound parameter, or where the statement keeps its values. What the term means is a
 * case-folded substring of name or description: `p.search_text LIKE lower(pattern)` (lower() in
 * SQL, the column's own case folding, so exactly ILIKE), which is the condition itself for terms
 * of one and two characters. A term holds no whitespace, so the products it matches are exactly
 * those holding one of the vocabulary's tokens that contain it; from three characters that
 * lookup is a trigram scan of the tokens, and `&&` one exact GIN scan over the products' tokens
 * (migration *_product_search_tokens), so the `LIKE` on the text would test nothing more.
 */
export function termCondition(term: string, pattern: Prisma.Sql): Prisma.Sql {
  if ([...term].length < 3) return Prisma.sql`p.search_text LIKE lower(${pattern})`;
  return Prisma.sql`search_tokens(p.search_text) && ARRAY(
      SELECT token FROM product_search_tokens WHERE token LIKE lower(${pattern}))`;
}
