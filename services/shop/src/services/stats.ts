import type { StatsResponse } from '@dogshop/contracts/shop';
import type { Db } from '../db/client.js';

export async function shopStats(db: Db): Promise<StatsResponse['data']> {
  const [products, categories, orders, customers] = await Promise.all([
    db.product.count({ where: { active: true } }),
    db.category.count({ where: { active: true } }),
    db.order.count(),
    db.customer.count(),
  ]);
  return { products, categories, orders, customers };
}
