// How a search term becomes SQL on `products p`: the storefront's search (products/repository.ts)
// and the back office's `q` (product-admin/repository.ts) match terms the same way.
import { Prisma } from '../../generated/prisma/client.js';
import { likeLiteral } from '../../domain/text.js';

/**
 * A search term's conditions. The `LIKE` is what the term means: a case-folded substring of name
 * or description, taken literally (lower() in SQL, the column's own case folding, so this is
 * exactly ILIKE). A term holds no whitespace, so the products it matches are exactly those
 * holding one of the vocabulary's tokens that contain it; from three characters that lookup is a
 * trigram scan of the (small) tokens, and `&&` one exact GIN scan over the products' tokens
 * (migration *_product_search_tokens). Shorter terms have no trigram to look up: their `LIKE`
 * filters what the other conditions found.
 */
export function termConditions(term: string): Prisma.Sql[] {
  const pattern = `%${likeLiteral(term)}%`;
  const like = Prisma.sql`p.search_text LIKE lower(${pattern})`;
  if ([...term].length < 3) return [like];
  return [
    Prisma.sql`search_tokens(p.search_text) && ARRAY(
      SELECT token FROM product_search_tokens WHERE token LIKE lower(${pattern}))`,
    like,
  ];
}
