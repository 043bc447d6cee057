// Clients of both services as an integrator writes them: openapi-fetch over the types that
// openapi-typescript generates from the committed documents (generated/, by `pnpm openapi`).
// `pnpm check` type-checks these calls (tsc --strict), so a contract change that breaks a
// generated client breaks the check. They are compiled, not run: the services' own tests check
// what the answers are.
import createClient from 'openapi-fetch';
import type { paths as DirectoryPaths } from './generated/handler-directory.js';
import type { paths as GatewayPaths } from './generated/gateway.js';
import type { paths as ShopPaths } from './generated/shop.js';

/** An order through the shop: list, detail, order (with an idempotency key), status, errors. */
export async function shopFlow(baseUrl: string, apiKey: string) {
  const shop = createClient<ShopPaths>({ baseUrl, headers: { 'X-API-Key': apiKey } });
  // Parameters with defaults (page, limit) may be left out.
  const list = await shop.GET('/products', {
    params: { query: { search: 'tracking lead', sort: 'price_asc' } },
  });
  const product = list.data?.data[0];
  if (!product) return { refused: list.error?.error };
  const detail = await shop.GET('/products/{id}', { params: { path: { id: product.id } } });
  const reviews: number | undefined = detail.data?.data.reviews.length;
  const order = await shop.POST('/orders', {
    params: { header: { 'idempotency-key': 'order-0001' } },
    body: {
      customer_name: 'Jana Johannsen',
      customer_email: 'jana@example.com',
      items: [
        { product_id: product.id, product_name: product.name, quantity: 1, price: product.price },
      ],
    },
  });
  if (order.error) return { refused: order.error.error, status: order.error.status_code };
  const status = await shop.PUT('/orders/{id}', {
    params: { path: { id: order.data.data.order_id } },
    body: { status: 'confirmed' },
  });
  return { reviews, total: order.data.data.total_amount, changed: status.data?.message };
}

/** The directory: the public list nearest first, a login, a handler read and sent back as shown. */
export async function directoryFlow(baseUrl: string, username: string, password: string) {
  const directory = createClient<DirectoryPaths>({ baseUrl });
  const near = await directory.GET('/api/public/users', {
    params: { query: { lat: 52.52, lng: 13.405, radius_km: 300, limit: 10 } },
  });
  const distance: number | undefined = near.data?.data[0]?.distance_km;
  const login = await directory.POST('/api/auth/login', { body: { username, password } });
  if (!login.data) return { distance, refused: login.error?.message };
  const headers = { Authorization: `Bearer ${login.data.token}` };
  const all = await directory.GET('/api/users', { headers });
  const handler = all.data?.data[0];
  if (!handler) return { distance };
  // The record as it was shown, read-only fields included: the document accepts it.
  const updated = await directory.PUT('/api/users/{id}', {
    headers,
    params: { path: { id: handler._id } },
    body: { ...handler, phone: '+49 5191 123123' },
  });
  const csv = await directory.GET('/api/users/export', {
    headers,
    params: { query: { format: 'csv', delimiter: 'semicolon' } },
    parseAs: 'text',
  });
  return { distance, phone: updated.data?.data.phone, csv: csv.data };
}

/** Both services through the gateway's combined document. */
export async function gatewayFlow(baseUrl: string, apiKey: string) {
  const gateway = createClient<GatewayPaths>({ baseUrl });
  const categories = await gateway.GET('/categories', { headers: { 'X-API-Key': apiKey } });
  const handlers = await gateway.GET('/api/public/users');
  return {
    categories: categories.data?.data.map((category) => category.name),
    handlers: handlers.data?.data.length,
  };
}
