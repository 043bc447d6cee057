import type { Review } from '@dogshop/contracts/shop';
import type { ReviewRow } from './repository.js';

export function reviewToDto(row: ReviewRow): Review {
  return {
    id: row.id,
    product_id: row.productId,
    customer_id: row.customerId,
    rating: row.rating,
    title: row.title,
    comment: row.comment,
    first_name: row.firstName,
    last_name: row.lastName,
    helpful_count: row.helpfulCount,
    created_at: row.createdAt.toISOString(),
  };
}
