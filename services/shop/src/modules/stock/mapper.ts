import type { StockMovement } from '@dogshop/contracts/shop';
import { actorView } from '../audit/actor.js';
import type { MovementRow } from './repository.js';

export const toStockMovement = (row: MovementRow): StockMovement => ({
  id: Number(row.id),
  at: row.createdAt.toISOString(),
  kind: row.kind,
  delta: row.delta,
  stock: row.stock,
  reason: row.reason,
  order_id: row.orderId,
  actor: actorView(row),
});
