import type { StockMovementKind } from '@dogshop/contracts/shop';
import type { Db, Tx } from '../../db/client.js';
import { actorColumns, type Actor } from '../audit/actor.js';

/** A change of one product's stock, written in the transaction that makes it. */
export interface NewMovement {
  productId: number;
  kind: StockMovementKind;
  delta: number;
  /** The stock after it. */
  stock: number;
  reason?: string | null;
  orderId?: number | null;
  actor?: Actor | null;
}

export async function insertMovements(tx: Tx, movements: NewMovement[]): Promise<void> {
  if (movements.length === 0) return;
  await tx.stockMovement.createMany({ data: movements.map(movementColumns) });
}

export const insertMovement = (tx: Tx, movement: NewMovement) =>
  tx.stockMovement.create({ data: movementColumns(movement) });

const movementColumns = (m: NewMovement) => ({
  productId: m.productId,
  kind: m.kind,
  delta: m.delta,
  stock: m.stock,
  reason: m.reason ?? null,
  orderId: m.orderId ?? null,
  ...(m.actor ? actorColumns(m.actor) : {}),
});

/** A product's movements, newest first, from before `beforeId`. */
export const findMovementPage = (db: Db, productId: number, take: number, beforeId?: bigint) =>
  db.stockMovement.findMany({
    where: { productId, ...(beforeId === undefined ? {} : { id: { lt: beforeId } }) },
    orderBy: { id: 'desc' },
    take,
  });
export type MovementRow = Awaited<ReturnType<typeof findMovementPage>>[number];

/**
 * The product's stock, its row locked until the transaction ends: a change computed from it
 * waits for (and then sees) any order placed at the same moment, which locks the same row.
 */
export async function lockProductStock(
  tx: Tx,
  id: number,
): Promise<{ stock: number; name: string } | null> {
  const [row] = await tx.$queryRaw<Array<{ stock: number; name: string }>>`
    SELECT stock, name FROM products WHERE id = ${id} FOR UPDATE`;
  return row ?? null;
}

export async function setProductStock(tx: Tx, id: number, stock: number): Promise<void> {
  await tx.product.update({ where: { id }, data: { stock }, select: { id: true } });
}

export const productExists = async (db: Db, id: number) =>
  (await db.product.count({ where: { id } })) > 0;
