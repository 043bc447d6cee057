// The TCP server: owns the store, the cursor registry, optional persistence and the sockets.
import { createServer, type Socket } from 'node:net';
import { handleConnection } from './connection.js';
import { CursorRegistry } from './cursors.js';
import { Persistence } from './storage/persistence.js';
import { Store } from './storage/store.js';

export interface MongoWireServerOptions {
  /** Interface to listen on; default 127.0.0.1 (never expose a dev database by accident). */
  host?: string;
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Load from / save to this file (canonical Extended JSON). Omit for memory only. */
  persistPath?: string;
  /** Where the start-up notice and problems go; default console.warn. */
  log?: (msg: string) => void;
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

  const sockets = new Set<Socket>();
  let connectionCount = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    handleConnection(socket, { store, cursors, connectionId: ++connectionCount, log });
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
        await stopped;
        cursors.close();
        await persistence?.flush();
      })()),
  };
}
