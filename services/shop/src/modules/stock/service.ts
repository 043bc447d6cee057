import type { AdjustStockBody, StockMovement } from '@dogshop/contracts/shop';
import { badRequest, conflict, notFound } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { idKeyset } from '../../domain/keyset.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import { productBackInStockEvent, productOutOfStockEvent } from '../events/builders.js';
import { insertEvents, type NewEvent } from '../events/repository.js';
import { writeEvents } from '../events/service.js';
import { toStockMovement } from './mapper.js';
import {
  findMovementPage,
  insertMovement,
  lockProductStock,
  productExists,
  setProductStock,
} from './repository.js';

const MAX_STOCK = 2_147_483_647;

/** The stock a change leaves, or the refusal that names why there is none. */
function stockAfter(id: number, stock: number, body: AdjustStockBody): number {
  if ((body.delta === undefined) === (body.set === undefined)) {
    throw badRequest('body must have either delta or set');
  }
  if (body.set !== undefined) return body.set;
  const delta = body.delta!;
  if (delta === 0) throw badRequest('body.delta must not be 0');
  const after = stock + delta;
  if (after < 0) throw conflict(`product ${id} has ${stock} in stock: cannot take away ${-delta}`);
  if (after > MAX_STOCK) throw conflict(`product ${id} cannot hold more than ${MAX_STOCK}`);
  return after;
}

/** The event a stock change from `before` to `after` announces, if any: emptied, or filled again. */
export function stockEvents(
  product: { id: number; name: string },
  before: number,
  after: number,
  actor: Actor | null,
): NewEvent[] {
  const changed = { ...product, stock: after };
  if (after === 0 && before > 0) return [productOutOfStockEvent(changed, actor)];
  if (after > 0 && before === 0) return [productBackInStockEvent(changed, actor)];
  return [];
}

/**
 * A stock adjustment by staff or a key: `delta` or a counted `set`, with its reason. The
 * product's row is locked first (as an order locks it), so the change applies to the stock as
 * it then is: an order placed at the same moment is neither lost nor oversold. The movement,
 * the audit entry and an out-of-stock or back-in-stock event commit with it.
 */
export async function adjustStock(
  db: Db,
  actor: Actor,
  id: number,
  body: AdjustStockBody,
): Promise<StockMovement> {
  const reason = body.reason.trim();
  return writeEvents(db, async (tx) => {
    const product = await lockProductStock(tx, id);
    if (!product) throw notFound(`Product ${id} not found`);
    const stock = stockAfter(id, product.stock, body);
    await setProductStock(tx, id, stock);
    const movement = await insertMovement(tx, {
      productId: id,
      kind: 'adjustment',
      delta: stock - product.stock,
      stock,
      reason,
      actor,
    });
    await insertAuditEntry(tx, actor, {
      action: 'product.stock',
      resource: 'product',
      resourceId: id,
      before: { stock: product.stock },
      after: { stock, reason },
    });
    await insertEvents(tx, stockEvents({ id, name: product.name }, product.stock, stock, actor));
    return toStockMovement(movement);
  });
}

/** A product's movements, newest first, page by page (the cursor is the last movement's id). */
const movementCursor = idKeyset('stock movements');

export async function listStockMovements(
  db: Db,
  productId: number,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ movements: StockMovement[]; nextCursor: string | null }> {
  const before = page.cursor === undefined ? undefined : movementCursor.decode(page.cursor);
  const [exists, rows] = await Promise.all([
    productExists(db, productId),
    findMovementPage(db, productId, page.limit + 1, before),
  ]);
  if (!exists) throw notFound(`Product ${productId} not found`);
  const shown = rows.slice(0, page.limit);
  return {
    movements: shown.map(toStockMovement),
    nextCursor: rows.length > page.limit ? movementCursor.encode(shown.at(-1)!.id) : null,
  };
}
