import type { Db, Tx } from '../../db/client.js';
import { addressOrder } from '../addresses/repository.js';

/** Who a customer is, as register and login answer (the route adds the token). */
export interface Account {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
}

const accountSelect = { id: true, email: true, firstName: true, lastName: true } as const;

export async function emailIsRegistered(db: Db, email: string): Promise<boolean> {
  return (await db.customer.findUnique({ where: { email }, select: { id: true } })) !== null;
}

export const insertCustomer = (
  tx: Tx,
  customer: {
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    phone: string;
    newsletter: boolean;
    lastLogin: Date;
  },
): Promise<Account> => tx.customer.create({ data: customer, select: accountSelect });

// The login and the bearer check run on every login and every signed-in request: plain
// statements (prepared once per connection), not the query builder, which costs more CPU per
// call than the statement costs PostgreSQL.

/** The account with its password hash, for checking a login. */
export async function findCredentials(
  db: Db,
  email: string,
): Promise<(Account & { passwordHash: string }) | null> {
  const [row] = await db.$queryRaw<Array<Account & { passwordHash: string }>>`
    SELECT id, email, first_name AS "firstName", last_name AS "lastName",
           password_hash AS "passwordHash"
      FROM customers
     WHERE email = ${email}`;
  return row ?? null;
}

/** Records a login now (the app's clock, as Prisma's writes); false when the customer was deleted meanwhile. */
export async function recordLogin(db: Db, id: number): Promise<boolean> {
  const recorded = await db.$executeRaw`
    UPDATE customers SET last_login = ${new Date().toISOString()}::timestamptz WHERE id = ${id}`;
  return recorded > 0;
}

/** The account's id and e-mail address, or null (the bearer scheme's check). */
export async function findAccount(
  db: Db,
  id: number,
): Promise<{ id: number; email: string } | null> {
  const [row] = await db.$queryRaw<Array<{ id: number; email: string }>>`
    SELECT id, email FROM customers WHERE id = ${id}`;
  return row ?? null;
}

/** A customer's profile with addresses, as the customer and the back office read it: never the hash. */
export const profileSelect = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  phone: true,
  newsletter: true,
  createdAt: true,
  lastLogin: true,
  addresses: { orderBy: addressOrder },
} as const;

export const findProfile = (db: Db, id: number) =>
  db.customer.findUnique({ where: { id }, select: profileSelect });

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

export const findNames = (tx: Tx, id: number) =>
  tx.customer.findUnique({
    where: { id },
    select: { email: true, firstName: true, lastName: true },
  });

export async function updateCustomer(
  tx: Tx,
  id: number,
  data: { firstName?: string; lastName?: string; phone?: string; newsletter?: boolean },
): Promise<void> {
  await tx.customer.update({ where: { id }, data });
}
