// One kind of request of the mixed traffic, and the helpers both services' lists share.
import type { CallResult } from './http-call.js';
import type { World } from './world.js';

export type ServiceName = 'shop' | 'handler-directory';

export interface Operation {
  service: ServiceName;
  name: string;
  weight: number;
  /** Statuses this operation answers when all is well. */
  expected: number[];
  run: (ctx: TrafficContext) => Promise<CallResult>;
}

export interface TrafficContext {
  shop: string;
  directory: string;
  world: World;
  random: () => number;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const pick = <T>(random: () => number, items: T[]): T | undefined =>
  items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
export const NOTHING: CallResult = { status: 0 };

/** A random id with no request in flight, marked busy; undefined when none is free. */
export function idle(world: World, random: () => number, ids: string[]): string | undefined {
  const free = ids.filter((id) => !world.busy.has(id));
  const id = pick(random, free);
  if (id) world.busy.add(id);
  return id;
}
