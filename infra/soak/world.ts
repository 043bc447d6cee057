// What the traffic learnt while it ran, which the invariants check the databases against.

export interface Product {
  id: number;
  name: string;
  price: number;
}

export interface PlacedOrder {
  id: number;
  /** product id → quantity, lines of the same product merged. */
  lines: Map<number, number>;
  /** 'uncertain' after a status change with no clear answer (503, no answer): left alone. */
  status: 'pending' | 'confirmed' | 'cancelled' | 'uncertain';
}

interface Customer {
  id: number;
  email: string;
  password: string;
  token: string;
}

interface HandlerRecord {
  name: string;
  phone: string;
  /** Phones of updates whose outcome is unknown (no answer, 503): one of them may have won. */
  uncertainPhones: string[];
}

/** What the traffic learnt: every write that answered 2xx, and the ones whose outcome is unknown. */
export class World {
  products: Product[] = [];
  customers: Customer[] = [];
  registeredEmails: string[] = [];
  orders = new Map<number, PlacedOrder>();
  /** Orders sent with an Idempotency-Key that answered 201: key → body and order id. */
  keyedOrders: Array<{ key: string; body: unknown; orderId: number }> = [];
  /** Replays of a keyed order: the id the replay answered and the original one. */
  replays: Array<{ original: number; replayed: number }> = [];
  reviews: Array<{ customerId: number; productId: number }> = [];
  handlers = new Map<string, HandlerRecord>();
  deletedHandlers = new Set<string>();
  /** Handlers whose deletion has an unknown outcome (503, no answer): left alone afterwards. */
  maybeDeletedHandlers = new Set<string>();
  /** Names of handlers whose creation has an unknown outcome. */
  uncertainHandlerNames = new Set<string>();
  adminToken = '';
  /** Ids with a request in flight: one request per order or handler at a time. */
  busy = new Set<string>();
  counter = 0;
}
