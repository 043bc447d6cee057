// The TCP server: owns the store, the cursor registry, optional persistence and the sockets.
import { createServer, type Socket } from 'node:net';
import { handleConnection } from './connection.js';
import { CursorRegistry } from './cursors.js';
import { Persistence } from './storage/persistence.js';
import { Store } from './storage/store.js';
import { DEFAULT_TRANSACTION_LIFETIME_SECONDS, TransactionCoordinator } from './transactions.js';

export interface MongoWireServerOptions {
  /** Interface to listen on; default 127.0.0.1 (never expose a dev database by accident). */
  host?: string;
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Load from / save to this file (canonical Extended JSON). Omit for memory only. */
  persistPath?: string;
  /** Where the start-up notice and problems go; default console.warn. */
  log?: (msg: string) => void;
  /**
   * A transaction open longer than this is aborted (mongod's transactionLifetimeLimitSeconds);
   * default 60. Fractions are allowed (tests).
   */
  transactionLifetimeLimitSeconds?: number;
}

export interface MongoWireServer {
  /** e.g. mongodb://127.0.0.1:54321 */
  uri: string;
  port: number;
  /** Stops listening, drops open connections and writes pending changes to `persistPath`. */
  close(): Promise<void>;
}

export async function startMongoWireServer(
  opts: MongoWireServerOptions = {},
): Promise<MongoWireServer> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? ((msg: string) => console.warn(msg));
  const store = new Store();
  const cursors = new CursorRegistry();
  const persistence = opts.persistPath ? new Persistence(opts.persistPath, store, log) : undefined;
  if (persistence) {
    await persistence.load();
    store.onChange = () => persistence.scheduleSave();
  }

  const lifetimeSeconds =
    opts.transactionLifetimeLimitSeconds ?? DEFAULT_TRANSACTION_LIFETIME_SECONDS;
  if (!(lifetimeSeconds > 0)) {
    throw new RangeError('transactionLifetimeLimitSeconds must be a positive number');
  }
  const transactions = new TransactionCoordinator({
    store,
    cursors,
    lifetimeMs: lifetimeSeconds * 1000,
    persistence,
    log,
  });

  const sockets = new Set<Socket>();
  let connectionCount = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    handleConnection(socket, { transactions, connectionId: ++connectionCount, log });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const uriHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const uri = `mongodb://${uriHost}:${port}`;

  log(
    `mongo-wire-server listening on ${uri}: a MongoDB stand-in for development and tests only, ` +
      `NOT for production use` +
      (opts.persistPath ? ` (data file: ${opts.persistPath})` : ' (in memory)'),
  );

  let closing: Promise<void> | undefined;
  return {
    uri,
    port,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        // An open transaction is undone, so only committed state is saved below.
        transactions.close();
        await stopped;
        cursors.close();
        await persistence?.flush();
      })()),
  };
}
