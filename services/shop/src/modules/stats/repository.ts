import type { Db } from '../../db/client.js';

/** Active products and categories, all orders and customers: four counts in parallel. */
export async function countAll(db: Db) {
  const [products, categories, orders, customers] = await Promise.all([
    db.product.count({ where: { active: true } }),
    db.category.count({ where: { active: true } }),
    db.order.count(),
    db.customer.count(),
  ]);
  return { products, categories, orders, customers };
}
