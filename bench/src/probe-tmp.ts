import path from 'node:path';
import { freePort } from '@dogshop/child-processes';
import { startPostgres } from './infra/postgres.js';
import { startShop, SHOP_API_KEY } from './infra/services.js';
const pg = await startPostgres({
  dir: path.join('/work/main/bench/.data', 'postgres'),
  port: await freePort(),
});
try {
  const db = 'bench_orders_10000';
  const shop = await startShop(pg.url(db), {
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'],
  });
  try {
    for (const q of [
      '/admin/orders?status=pending&limit=50',
      '/admin/orders?status=pending&limit=5',
      '/products?limit=20',
      '/admin/products?limit=50',
    ]) {
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t0 = performance.now();
        const res = await fetch(`${shop.url}${q}`, { headers: { 'x-api-key': SHOP_API_KEY } });
        await res.text();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(q, 'median ms', times[150]!.toFixed(2), 'p10', times[30]!.toFixed(2));
    }
  } finally {
    await shop.stop();
  }
} finally {
  await pg.stop();
}
