import type { AdminReview } from '@dogshop/contracts/shop';
import type { AdminReviewRow } from './repository.js';

export const toAdminReview = (row: AdminReviewRow): AdminReview => ({
  id: row.id,
  product_id: row.product_id,
  customer_id: row.customer_id,
  rating: row.rating,
  title: row.title,
  comment: row.comment,
  first_name: row.first_name,
  last_name: row.last_name,
  helpful_count: row.helpful_count,
  created_at: row.created_at.toISOString(),
  product_name: row.product_name,
  hidden: row.hidden,
});
