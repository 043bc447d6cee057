import type { AdminCustomer, AdminCustomerDetail } from '@dogshop/contracts/shop';
import { toMoneyNumber } from '../../domain/money.js';
import { addressToDto } from '../addresses/mapper.js';
import type { AdminCustomerRow, CustomerForAdmin } from './repository.js';

export const toAdminCustomer = (row: AdminCustomerRow): AdminCustomer => ({
  id: row.id,
  email: row.email,
  first_name: row.first_name,
  last_name: row.last_name,
  phone: row.phone,
  newsletter: row.newsletter,
  created_at: row.created_at.toISOString(),
  last_login: row.last_login?.toISOString() ?? null,
});

export const toAdminCustomerDetail = (customer: CustomerForAdmin): AdminCustomerDetail => ({
  ...toAdminCustomer({
    id: customer.id,
    email: customer.email,
    first_name: customer.firstName,
    last_name: customer.lastName,
    phone: customer.phone,
    newsletter: customer.newsletter,
    created_at: customer.createdAt,
    last_login: customer.lastLogin,
  }),
  addresses: customer.addresses.map(addressToDto),
  order_count: customer._count.orders,
  orders: customer.orders.map((order) => ({
    id: order.id,
    status: order.status,
    total_amount: toMoneyNumber(order.totalAmount),
    created_at: order.createdAt.toISOString(),
  })),
});
