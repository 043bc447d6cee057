import type { PoolStats } from '@dogshop/service-kit';
import type { mongo } from 'mongoose';

/**
 * The driver's connection pools (one per server, added up), counted from the monitoring events
 * the driver emits on every check-out and check-in anyway: one integer each, read on demand.
 * Watch a client before it connects, so that every connection it opens is seen.
 */
export function watchPool(client: mongo.MongoClient): () => PoolStats {
  let open = 0;
  let checkedOut = 0;
  let waiting = 0;
  client.on('connectionCreated', () => (open += 1));
  client.on('connectionClosed', () => (open -= 1));
  client.on('connectionCheckOutStarted', () => (waiting += 1));
  client.on('connectionCheckOutFailed', () => (waiting -= 1));
  client.on('connectionCheckedOut', () => {
    waiting -= 1;
    checkedOut += 1;
  });
  client.on('connectionCheckedIn', () => (checkedOut -= 1));
  const max = client.options.maxPoolSize;
  return () => ({ max, inUse: checkedOut, idle: Math.max(0, open - checkedOut), waiting });
}
