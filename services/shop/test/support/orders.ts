import type { CreateOrderBody } from '@dogshop/contracts/shop';
import type { FastifyInstance } from 'fastify';

export type OrderLine = {
  product_id: number;
  quantity: number;
  price: number;
  product_name?: string;
};

/** A valid order body; `product_name` is filled in because the contract requires it. */
export function orderBody(
  items: OrderLine[],
  extra: Partial<CreateOrderBody> = {},
): CreateOrderBody {
  return {
    customer_name: 'Ann Handler',
    customer_email: 'ann@example.com',
    items: items.map((item) => ({ product_name: 'as shown in the cart', ...item })),
    ...extra,
  };
}

/** A product of its own (in a fresh category), so stock-sensitive tests do not share rows. */
export async function addProduct(
  app: FastifyInstance,
  name: string,
  price: string,
  stock: number,
  active = true,
): Promise<number> {
  const row = await app.db.product.create({
    data: {
      name,
      price,
      stock,
      active,
      category: {
        connectOrCreate: { where: { name: 'Test goods' }, create: { name: 'Test goods' } },
      },
    },
    select: { id: true },
  });
  return row.id;
}

export async function stockOf(app: FastifyInstance, id: number): Promise<number> {
  const row = await app.db.product.findUniqueOrThrow({ where: { id }, select: { stock: true } });
  return row.stock;
}
