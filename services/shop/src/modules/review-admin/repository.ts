import type { Db, Tx } from '../../db/client.js';
import type { CreatedPosition } from '../../domain/keyset.js';
import { Prisma } from '../../generated/prisma/client.js';

/** A review as the back office shows it: the public fields, its product's name, its state. */
export interface AdminReviewRow {
  id: number;
  product_id: number;
  product_name: string;
  customer_id: number;
  first_name: string;
  last_name: string;
  rating: number;
  title: string;
  comment: string;
  helpful_count: number;
  created_at: Date;
  hidden: boolean;
}

export interface ReviewFilter {
  productId?: number | undefined;
  hidden?: boolean | undefined;
}

const columns = Prisma.sql`r.id, r.product_id, p.name AS product_name, r.customer_id,
  cu.first_name, cu.last_name, r.rating, r.title, r.comment, r.helpful_count, r.created_at,
  r.hidden`;

/**
 * A page of reviews, newest first, after `after`. `hidden` is written as the predicate itself
 * (`r.hidden` / `NOT r.hidden`), not as a parameter, so the partial indexes on it serve the page
 * (`NOT r.hidden` with a product: the public list's index).
 */
export function findReviewPage(
  db: Db,
  filter: ReviewFilter,
  take: number,
  after?: CreatedPosition,
): Promise<AdminReviewRow[]> {
  const conditions: Prisma.Sql[] = [];
  if (filter.productId !== undefined)
    conditions.push(Prisma.sql`r.product_id = ${filter.productId}`);
  if (filter.hidden !== undefined) {
    conditions.push(filter.hidden ? Prisma.sql`r.hidden` : Prisma.sql`NOT r.hidden`);
  }
  if (after) {
    conditions.push(
      Prisma.sql`(r.created_at, r.id) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::int)`,
    );
  }
  const where = conditions.length
    ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`
    : Prisma.empty;
  return db.$queryRaw`
    SELECT ${columns}
      FROM reviews r
      JOIN products p ON p.id = r.product_id
      JOIN customers cu ON cu.id = r.customer_id
     ${where}
     ORDER BY r.created_at DESC, r.id DESC
     LIMIT ${take}`;
}

/** One review, locked until the transaction ends (a moderation's before and after are exact). */
export async function findReviewForUpdate(tx: Tx, id: number): Promise<AdminReviewRow | null> {
  const [row] = await tx.$queryRaw<AdminReviewRow[]>`
    SELECT ${columns}
      FROM reviews r
      JOIN products p ON p.id = r.product_id
      JOIN customers cu ON cu.id = r.customer_id
     WHERE r.id = ${id}
       FOR UPDATE OF r`;
  return row ?? null;
}

export async function setReviewHidden(tx: Tx, id: number, hidden: boolean): Promise<void> {
  await tx.$executeRaw`UPDATE reviews SET hidden = ${hidden} WHERE id = ${id}`;
}
