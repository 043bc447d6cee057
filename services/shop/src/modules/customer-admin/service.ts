import {
  ADMIN_CUSTOMER_ORDERS,
  type AdminCustomer,
  type AdminCustomerDetail,
  type AdminCustomerListQuery,
} from '@dogshop/contracts/shop';
import { notFound } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { createdKeyset } from '../../domain/keyset.js';
import { toAdminCustomer, toAdminCustomerDetail } from './mapper.js';
import { countCustomers, findCustomerForAdmin, findCustomerPage } from './repository.js';

const cursor = createdKeyset('customers');

/**
 * A page of customers, newest first, the next page's cursor, and the exact total of `q`
 * (counted through the same trigram index, beside the page).
 */
export async function listAdminCustomers(
  db: Db,
  query: AdminCustomerListQuery,
): Promise<{ customers: AdminCustomer[]; nextCursor: string | null; total: number }> {
  const q = query.q?.trim() || undefined;
  const after = query.cursor === undefined ? undefined : cursor.decode(query.cursor);
  const [rows, total] = await Promise.all([
    findCustomerPage(db, q, query.limit + 1, after),
    countCustomers(db, q),
  ]);
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    customers: shown.map(toAdminCustomer),
    nextCursor:
      rows.length > query.limit && last
        ? cursor.encode({ createdAt: last.created_at, id: last.id })
        : null,
    total,
  };
}

export async function getAdminCustomer(db: Db, id: number): Promise<AdminCustomerDetail> {
  const customer = await findCustomerForAdmin(db, id, ADMIN_CUSTOMER_ORDERS);
  if (!customer) throw notFound(`Customer ${id} not found`);
  return toAdminCustomerDetail(customer);
}
