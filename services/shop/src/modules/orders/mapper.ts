import type { CreateOrderResponse, CreatedOrder, OrderDetail } from '@dogshop/contracts/shop';
import { toMoneyNumber } from '../../domain/money.js';
import type { OrderWithItems } from './repository.js';

export function orderToDto(order: OrderWithItems): OrderDetail {
  return {
    id: order.id,
    customer_name: order.customerName,
    customer_email: order.customerEmail,
    total_amount: toMoneyNumber(order.totalAmount),
    status: order.status,
    created_at: order.createdAt.toISOString(),
    items: order.items.map((item) => ({
      product_id: item.productId,
      product_name: item.productName,
      quantity: item.quantity,
      price: toMoneyNumber(item.unitPrice),
      total_price: toMoneyNumber(item.totalPrice),
    })),
  };
}

/**
 * The answer to a placed order: what the route sends, and what an `Idempotency-Key` stores and
 * replays (the stored answer is the response body exactly).
 */
export const createdOrderAnswer = (order: CreatedOrder): CreateOrderResponse => ({
  success: true,
  data: order,
  message: `Order ${order.order_id} created`,
});
