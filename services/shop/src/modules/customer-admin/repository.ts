import type { Db } from '../../db/client.js';
import { PLAN_PER_CALL } from '../../db/prepared-statements.js';
import type { CreatedPosition } from '../../domain/keyset.js';
import { likeLiteral } from '../../domain/text.js';
import { Prisma } from '../../generated/prisma/client.js';
import { profileSelect } from '../customers/repository.js';

/** A customer as the back office lists them (never the password hash). */
export interface AdminCustomerRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  newsletter: boolean;
  created_at: Date;
  last_login: Date | null;
}

/**
 * `q` as a part of the e-mail address or name: `search_text` (the three lowered, one trigram
 * index), `%` and `_` literal. A pattern's best plan depends on it: planned per call.
 */
const searchSql = (q: string | undefined) =>
  q === undefined ? Prisma.empty : Prisma.sql`c.search_text LIKE lower(${`%${likeLiteral(q)}%`})`;

/** A page of customers matching `q`, newest first, after `after`. */
export function findCustomerPage(
  db: Db,
  q: string | undefined,
  take: number,
  after?: CreatedPosition,
): Promise<AdminCustomerRow[]> {
  const conditions = [
    ...(q === undefined ? [] : [searchSql(q)]),
    ...(after
      ? [
          Prisma.sql`(c.created_at, c.id) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::int)`,
        ]
      : []),
  ];
  const where = conditions.length
    ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`
    : Prisma.empty;
  return db.$queryRaw`
    SELECT c.id, c.email, c.first_name, c.last_name, c.phone, c.newsletter, c.created_at,
           c.last_login
      FROM customers c ${where}
     ORDER BY c.created_at DESC, c.id DESC
     LIMIT ${take} ${q === undefined ? Prisma.empty : PLAN_PER_CALL}`;
}

/** The exact number of customers matching `q`. */
export async function countCustomers(db: Db, q: string | undefined): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ total: number }>>`
    SELECT count(*)::int AS total FROM customers c
     ${q === undefined ? Prisma.empty : Prisma.sql`WHERE ${searchSql(q)}`}
     ${q === undefined ? Prisma.empty : PLAN_PER_CALL}`;
  return row?.total ?? 0;
}

/**
 * A customer with their addresses, their newest `orders` orders and the number of all: one
 * query, the password hash never selected.
 */
export const findCustomerForAdmin = (db: Db, id: number, orders: number) =>
  db.customer.findUnique({
    where: { id },
    select: {
      ...profileSelect,
      orders: {
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: orders,
        select: { id: true, status: true, totalAmount: true, createdAt: true },
      },
      _count: { select: { orders: true } },
    },
  });
export type CustomerForAdmin = NonNullable<Awaited<ReturnType<typeof findCustomerForAdmin>>>;
