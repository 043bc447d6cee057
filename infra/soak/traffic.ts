// Mixed traffic at a steady rate (open loop: requests start on schedule whether or not earlier
// ones have answered, up to a cap on requests in flight) against both services, remembering
// every answer and what each successful write promised, for the invariant checks.
// The operations themselves are in shop-traffic.ts and directory-traffic.ts.
import { DIRECTORY_OPERATIONS } from './directory-traffic.js';
import { SHOP_OPERATIONS } from './shop-traffic.js';
import {
  NOTHING,
  type Operation,
  type ServiceName,
  type TrafficContext,
} from './traffic-operation.js';

export { call, REQUEST_TIMEOUT_MS, type CallResult } from './http-call.js';
export { LOW_STOCK } from './shop-traffic.js';
export type { ServiceName, TrafficContext } from './traffic-operation.js';
export { World, type PlacedOrder, type Product } from './world.js';

export interface Outcome {
  service: ServiceName;
  op: string;
  /** ms since the start of the run. */
  startedAt: number;
  endedAt: number;
  status?: number;
  /** Network failure or 'timeout' when there was no HTTP answer. */
  error?: string;
  /** An answer that contradicts what the request should get (e.g. a wrong password accepted). */
  mismatch?: string;
}

/** mulberry32: a small seeded generator, so a run's choices can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Both services' operations; the weighted choice walks them in this order. */
export const OPERATIONS: Operation[] = [...SHOP_OPERATIONS, ...DIRECTORY_OPERATIONS];

export interface LoadOptions {
  ratePerSecond: number;
  /** Requests in flight at most; a start that would exceed it is skipped and counted. */
  maxInFlight: number;
  seed: number;
}

export interface Load {
  outcomes: Outcome[];
  /** Starts skipped because maxInFlight requests were still waiting. */
  skipped: number;
  inFlight(): number;
  /** Stops starting requests and resolves once every request in flight has answered. */
  stop(): Promise<void>;
}

/** Starts the traffic; `now()` is the run's clock (ms since its start). */
export function startLoad(
  ctx: Omit<TrafficContext, 'random'>,
  opts: LoadOptions,
  now: () => number,
): Load {
  const random = seededRandom(opts.seed);
  const context: TrafficContext = { ...ctx, random };
  const total = OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  const choose = () => {
    let r = random() * total;
    for (const op of OPERATIONS) {
      r -= op.weight;
      if (r < 0) return op;
    }
    return OPERATIONS[0]!;
  };
  const outcomes: Outcome[] = [];
  const pending = new Set<Promise<void>>();
  let skipped = 0;
  let started = 0;
  const begin = now();
  const launch = () => {
    const op = choose();
    const startedAt = now();
    const promise = op.run(context).then((res) => {
      if (res === NOTHING) return; // nothing to act on yet (no customer, no handler)
      outcomes.push({
        service: op.service,
        op: op.name,
        startedAt,
        endedAt: now(),
        ...(res.status !== undefined ? { status: res.status } : {}),
        ...(res.error !== undefined ? { error: res.error } : {}),
        ...(res.mismatch !== undefined ? { mismatch: res.mismatch } : {}),
      });
    });
    pending.add(promise);
    void promise.finally(() => pending.delete(promise));
  };
  const timer = setInterval(() => {
    const due = Math.floor(((now() - begin) / 1000) * opts.ratePerSecond);
    for (; started < due; started++) {
      if (pending.size >= opts.maxInFlight) skipped += 1;
      else launch();
    }
  }, 5);
  return {
    outcomes,
    get skipped() {
      return skipped;
    },
    inFlight: () => pending.size,
    stop: async () => {
      clearInterval(timer);
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/** Expected statuses per operation (for the report of unexpected answers). */
export const EXPECTED = new Map(OPERATIONS.map((op) => [`${op.service} ${op.name}`, op.expected]));
