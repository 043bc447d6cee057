import type { Pagination } from '@dogshop/contracts/common';
import type { Product, ProductDetail, ProductListQuery } from '@dogshop/contracts/shop';
import { badRequest, notFound } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import type { SqlReads } from '../../db/sql-reads.js';
import { reviewToDto } from '../reviews/mapper.js';
import { productRowToDto } from './mapper.js';
import {
  findActiveProducts,
  findVisibleProductWithReviews,
  isProductVisible,
} from './repository.js';

const MAX_SEARCH_TERMS = 10;

/**
 * One page of active products: `category` includes its descendants, every search term must match.
 * The total is exact: kept counts when browsing, a count of the matches through the indexes when
 * searching or filtering by price (see findActiveProducts).
 */
export async function listProducts(
  reads: SqlReads,
  query: ProductListQuery,
): Promise<{ products: Product[]; pagination: Pagination }> {
  if (
    query.min_price !== undefined &&
    query.max_price !== undefined &&
    query.min_price > query.max_price
  ) {
    throw badRequest('querystring.min_price must be less than or equal to max_price');
  }
  const { page, limit } = query;
  const { total, rows } = await findActiveProducts(
    reads,
    {
      categoryId: query.category,
      minPrice: query.min_price,
      maxPrice: query.max_price,
      terms: searchTerms(query.search),
    },
    { sort: query.sort ?? 'newest', skip: (page - 1) * limit, take: limit },
  );
  return {
    products: rows.map(productRowToDto),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

export async function getProduct(reads: SqlReads, id: number): Promise<ProductDetail> {
  const found = await findVisibleProductWithReviews(reads, id);
  if (!found) throw productNotFound(id);
  return { ...productRowToDto(found.product), reviews: found.reviews.map(reviewToDto) };
}

export const productNotFound = (id: number) => notFound(`Product ${id} not found`);

/** 404 unless the product exists and is active. */
export async function assertProductVisible(db: Db, id: number): Promise<void> {
  if (!(await isProductVisible(db, id))) throw productNotFound(id);
}

/** Whitespace-separated terms; every one must match (the search is an AND of terms). */
function searchTerms(search: string | undefined): string[] {
  return (search ?? '').split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_TERMS);
}
