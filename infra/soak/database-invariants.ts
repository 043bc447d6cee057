// Invariants of the data, read from the databases themselves: what the traffic was promised is
// stored, nothing half-written, stock adds up, nothing appeared or came back.
import { openDirectoryDb } from '@dogshop/handler-directory/db/connection';
import type { Db } from '@dogshop/shop/db/client';
import type { Invariant } from './report.js';
import { LOW_STOCK } from './shop-traffic.js';
import type { World } from './world.js';

export async function directoryHandlers(
  uri: string,
): Promise<Map<string, { name: string; phone: string }>> {
  const directory = await openDirectoryDb(uri);
  try {
    const rows = await directory.handlers.find({}).lean();
    return new Map(rows.map((h) => [h._id.toHexString(), { name: h.name, phone: h.phone }]));
  } finally {
    await directory.close();
  }
}

export async function shopInvariants(
  db: Db,
  world: World,
  initialStock: Map<number, number>,
): Promise<Invariant[]> {
  const orders = await db.$queryRawUnsafe<
    Array<{
      id: number;
      status: string;
      total: string;
      items_total: string;
      item_count: number;
      history: number;
      last_status: string | null;
    }>
  >(`SELECT o.id, o.status::text AS status, o.total_amount::text AS total,
            (SELECT coalesce(sum(i.total_price), 0)::text FROM order_items i WHERE i.order_id = o.id) AS items_total,
            (SELECT count(*)::int FROM order_items i WHERE i.order_id = o.id) AS item_count,
            (SELECT count(*)::int FROM order_status_history h WHERE h.order_id = o.id) AS history,
            (SELECT h.to_status::text FROM order_status_history h WHERE h.order_id = o.id
              ORDER BY h.changed_at DESC, h.id DESC LIMIT 1) AS last_status
       FROM orders o`);
  const items = await db.$queryRawUnsafe<
    Array<{ order_id: number; product_id: number; quantity: number }>
  >('SELECT order_id, product_id, quantity FROM order_items');
  const stock = await db.$queryRawUnsafe<Array<{ id: number; stock: number; taken: number }>>(
    `SELECT p.id, p.stock,
            coalesce(sum(i.quantity) FILTER (WHERE o.status <> 'cancelled'), 0)::int AS taken
       FROM products p
       LEFT JOIN order_items i ON i.product_id = p.id
       LEFT JOIN orders o ON o.id = i.order_id
      GROUP BY p.id`,
  );
  const duplicateReviews = await db.$queryRawUnsafe<
    Array<{ product_id: number; customer_id: number; n: number }>
  >(
    'SELECT product_id, customer_id, count(*)::int AS n FROM reviews GROUP BY 1, 2 HAVING count(*) > 1',
  );
  const reviews = new Set(
    (
      await db.$queryRawUnsafe<Array<{ product_id: number; customer_id: number }>>(
        'SELECT product_id, customer_id FROM reviews',
      )
    ).map((r) => `${r.customer_id}/${r.product_id}`),
  );
  const emails = new Set(
    (await db.$queryRawUnsafe<Array<{ email: string }>>('SELECT email FROM customers')).map(
      (c) => c.email,
    ),
  );

  const byId = new Map(orders.map((o) => [o.id, o]));
  const linesOf = new Map<number, Map<number, number>>();
  for (const item of items) {
    const lines = linesOf.get(item.order_id) ?? new Map<number, number>();
    lines.set(item.product_id, (lines.get(item.product_id) ?? 0) + item.quantity);
    linesOf.set(item.order_id, lines);
  }
  const lost = [...world.orders.values()].filter((o) => {
    const stored = linesOf.get(o.id);
    return (
      !byId.has(o.id) ||
      !stored ||
      stored.size !== o.lines.size ||
      [...o.lines].some(([p, q]) => stored.get(p) !== q)
    );
  });
  const wrongStatus = [...world.orders.values()].filter(
    (o) => o.status === 'cancelled' && byId.get(o.id)?.status !== 'cancelled',
  );
  const halfWritten = orders.filter(
    (o) =>
      o.item_count === 0 ||
      Number(o.total) !== Number(o.items_total) ||
      o.history === 0 ||
      o.last_status !== o.status,
  );
  const stockWrong = stock.filter((s) => s.stock !== (initialStock.get(s.id) ?? 0) - s.taken);
  const negative = stock.filter((s) => s.stock < 0);
  const lostReviews = world.reviews.filter((r) => !reviews.has(`${r.customerId}/${r.productId}`));
  const lostCustomers = world.registeredEmails.filter((e) => !emails.has(e));
  const replayWrong = world.replays.filter((r) => r.original !== r.replayed);
  const soldOut = stock.filter((s) => (initialStock.get(s.id) ?? 0) === LOW_STOCK);

  return [
    {
      name: 'shop: every order that answered 201 exists with its items',
      ok: lost.length === 0,
      detail:
        lost.length === 0
          ? `${world.orders.size} orders checked`
          : `missing or different: ${lost
              .slice(0, 5)
              .map((o) => o.id)
              .join(', ')}`,
    },
    {
      name: 'shop: no half-written orders (items present, totals add up, status history complete)',
      ok: halfWritten.length === 0,
      detail:
        halfWritten.length === 0
          ? `${orders.length} orders in the database`
          : `orders ${halfWritten
              .slice(0, 5)
              .map((o) => o.id)
              .join(', ')}`,
    },
    {
      name: 'shop: stock = initial − sum of non-cancelled order quantities, for every product',
      ok: stockWrong.length === 0,
      detail:
        stockWrong.length === 0
          ? `${stock.length} products; ${orders.filter((o) => o.status === 'cancelled').length} cancelled orders returned their stock`
          : stockWrong
              .slice(0, 5)
              .map((s) => `product ${s.id}: ${s.stock} ≠ ${initialStock.get(s.id)} − ${s.taken}`)
              .join('; '),
    },
    {
      name: 'shop: no negative stock (low-stock products ran out with 409, never oversold)',
      ok: negative.length === 0,
      detail: `lowest ${Math.min(...stock.map((s) => s.stock))}; low-stock products now ${soldOut.map((s) => s.stock).join(', ')}`,
    },
    {
      name: 'shop: one review per customer and product; every 201 review exists',
      ok: duplicateReviews.length === 0 && lostReviews.length === 0,
      detail: `${reviews.size} reviews; ${duplicateReviews.length} duplicates; ${lostReviews.length} lost`,
    },
    {
      name: 'shop: every registered customer exists; every cancelled order is cancelled; replays return the original order',
      ok: lostCustomers.length === 0 && wrongStatus.length === 0 && replayWrong.length === 0,
      detail: `${world.registeredEmails.length} customers, ${[...world.orders.values()].filter((o) => o.status === 'cancelled').length} cancellations, ${world.replays.length} replays; problems: ${lostCustomers.length + wrongStatus.length + replayWrong.length}`,
    },
  ];
}

export async function directoryInvariants(
  uri: string,
  world: World,
  initial: Map<string, { name: string; phone: string }>,
): Promise<Invariant[]> {
  const stored = await directoryHandlers(uri);
  const lost = [...world.handlers].filter(([id, h]) => {
    const now = stored.get(id);
    return (
      !now ||
      now.name !== h.name ||
      (now.phone !== h.phone && !h.uncertainPhones.includes(now.phone))
    );
  });
  const resurrected = [...world.deletedHandlers].filter((id) => stored.has(id));
  const unknown = [...stored].filter(
    ([id, h]) =>
      !initial.has(id) &&
      !world.handlers.has(id) &&
      !world.maybeDeletedHandlers.has(id) &&
      !world.uncertainHandlerNames.has(h.name),
  );
  return [
    {
      name: 'handler directory: every handler created (201) or changed (200) is stored as answered',
      ok: lost.length === 0,
      detail:
        lost.length === 0
          ? `${world.handlers.size} handlers checked`
          : `lost or changed: ${lost
              .slice(0, 5)
              .map(([id]) => id)
              .join(', ')}`,
    },
    {
      name: 'handler directory: deleted (200) handlers stay deleted; nothing appeared from nowhere',
      ok: resurrected.length === 0 && unknown.length === 0,
      detail: `${world.deletedHandlers.size} deleted, ${resurrected.length} back; ${stored.size} stored (${initial.size} at the start), ${unknown.length} unaccounted for`,
    },
  ];
}
