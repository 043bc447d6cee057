// SIGTERM to each service mid-load, with requests it certainly has in flight.
import type { Db } from '@dogshop/shop/db/client';
import net from 'node:net';
import { call } from './http-call.js';
import { SHOP_API_KEY, type Platform, type Service } from './platform.js';
import { tally, type ShutdownReport } from './report.js';
import { sleep } from './sleep.js';
import type { World } from './world.js';

const BURST = 6;

/**
 * SIGTERM to the shop while orders are certainly in flight: a row lock held here makes BURST
 * orders wait inside their transactions; the signal goes out while they wait, then the lock is
 * released. They must all complete (201) and the process must exit 0.
 */
export async function shutDownShop(
  platform: Platform,
  db: Db,
  world: World,
  now: () => number,
): Promise<ShutdownReport> {
  const product = world.products[0]!;
  const body = {
    customer_name: 'Shutdown',
    customer_email: 'shutdown@example.com',
    items: [
      { product_id: product.id, product_name: product.name, quantity: 1, price: product.price },
    ],
  };
  let burst: Array<Promise<Awaited<ReturnType<typeof call>>>> = [];
  let signalAtMs = 0;
  await db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe('SELECT id FROM products WHERE id = $1 FOR UPDATE', product.id);
      burst = Array.from({ length: BURST }, () =>
        call(platform.shop.url, 'POST', '/orders', {
          headers: { 'x-api-key': SHOP_API_KEY },
          body,
        }),
      );
      for (let i = 0; i < 250; i++) {
        const [row] = await db.$queryRawUnsafe<Array<{ n: number }>>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (row!.n >= BURST) break;
        await sleep(20);
      }
      signalAtMs = now();
      platform.shop.process.child.kill('SIGTERM');
      await sleep(300);
    },
    { maxWait: 5_000, timeout: 20_000 },
  );
  const answers = await Promise.all(burst);
  for (const res of answers) {
    if (res.status === 201) {
      const id = (res.json!.data as { order_id: number }).order_id;
      world.orders.set(id, { id, lines: new Map([[product.id, 1]]), status: 'pending' });
    }
  }
  const exitCode = await exitWithin(platform.shop, 15_000);
  return {
    service: 'shop',
    signalAtMs,
    exitCode,
    inFlight: tally(answers.map((a) => ({ status: a.status, error: a.error }))),
  };
}

/**
 * SIGTERM to the handler directory while a create is certainly in flight: its headers and half
 * its body are sent before the signal, the rest after. It must still be created (201) and the
 * process must exit 0.
 */
export async function shutDownDirectory(
  service: Service,
  world: World,
  now: () => number,
): Promise<ShutdownReport> {
  const name = `Soak Hundeführer beim Herunterfahren ${world.counter++}`;
  const body = Buffer.from(JSON.stringify({ name, phone: '+49 30 999' }));
  const port = Number(new URL(service.url).port);
  const socket = net.connect(port, '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => resolve(text));
    socket.on('close', () => resolve(text));
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `POST /api/users HTTP/1.1\r\nHost: soak\r\nAuthorization: Bearer ${world.adminToken}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, 10));
  await sleep(100);
  const signalAtMs = now();
  service.process.child.kill('SIGTERM');
  await sleep(300);
  socket.write(body.subarray(10)); // no FIN: a half-closed request is an abandoned one
  const text = await answer;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0) || undefined;
  if (status === 201) {
    const id = (JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { data: { _id: string } })
      .data._id;
    world.handlers.set(id, { name, phone: '+49 30 999', uncertainPhones: [] });
  } else {
    world.uncertainHandlerNames.add(name);
  }
  const exitCode = await exitWithin(service, 15_000);
  return {
    service: service.name,
    signalAtMs,
    exitCode,
    inFlight: tally([status === undefined ? { error: 'no answer' } : { status }]),
  };
}

async function exitWithin(service: Service, ms: number): Promise<number | null> {
  const timer = setTimeout(() => service.process.child.kill('SIGKILL'), ms);
  try {
    return await service.process.exited;
  } finally {
    clearTimeout(timer);
  }
}
