import type { PoolStats } from '@dogshop/service-kit';
import mongoose, { type Connection } from 'mongoose';
import { registerAccountModel, type AccountModel } from './account-model.js';
import { registerHandlerModel, type HandlerModel } from './handler-model.js';
import { HISTORY_TTL_INDEX, registerHistoryModel, type HistoryModel } from './history-model.js';
import { watchPool } from './pool-stats.js';

// Defence in depth against operator injection: request bodies are already validated as closed
// schemas, and filters are still wrapped so that a `$`-object can never act as an operator.
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', true);

export const DEFAULT_DATABASE = 'handler_directory';

export interface DirectoryDb {
  connection: Connection;
  /**
   * The handlers (collection `handlers`): the one way to them. modules/handlers/repository.ts is
   * the only code that queries it, and reads many handlers through the driver's collection
   * behind this model (why: see there).
   */
  handlers: HandlerModel;
  /** The accounts (collection `admins`). */
  admins: AccountModel;
  /** The handlers' change history (collection `handler_history`); modules/handlers/history.ts. */
  history: HistoryModel;
  /** Resolves when the server answers a ping. */
  ping(): Promise<void>;
  /** The driver's connection pool now (metrics, load shedding). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** The database named in the URI path, else DEFAULT_DATABASE. */
export function databaseNameOf(uri: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]+\/([^?]*)/.exec(uri);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name || DEFAULT_DATABASE;
}

/** Resolves when the server at `uri` answers a ping within `timeoutMs`; rejects otherwise. */
export async function pingMongo(uri: string, timeoutMs: number): Promise<void> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: timeoutMs,
    maxPoolSize: 1,
  });
  try {
    await connection.asPromise();
    await connection.db!.command({ ping: 1 });
  } finally {
    await connection.close().catch(() => {});
  }
}

export interface DirectoryDbOptions {
  /** The database (default: the one named in the URI, else DEFAULT_DATABASE). */
  dbName?: string;
  /** How long the history is kept (default 400 days). */
  historyRetentionDays?: number;
}

/**
 * How long an operation waits for a server it can use (the driver's default is 30 s, ours was 5 s).
 * While MongoDB is down every request waits this long before its 503, holding its connection
 * and the client: a second is enough for a server that answers (selection takes microseconds,
 * a reconnection a few milliseconds), and a client told 503 (`/ready` too) can go elsewhere. A
 * replica set election takes longer; writes during it answer 503 rather than wait. Start-up
 * waits for the server beforehand (DATABASE_WAIT_SECONDS, pingMongo).
 */
export const SERVER_SELECTION_TIMEOUT_MS = 1_000;

/** Code of MongoDB's IndexOptionsConflict: an index of that name exists with other options. */
const INDEX_OPTIONS_CONFLICT = 85;

/** Connects, registers the models and builds their indexes (unique usernames among them). */
export async function openDirectoryDb(
  uri: string,
  options: DirectoryDbOptions = {},
): Promise<DirectoryDb> {
  const dbName = options.dbName ?? databaseNameOf(uri);
  const retentionSeconds = (options.historyRetentionDays ?? 400) * 24 * 60 * 60;
  const connection = mongoose.createConnection(uri, {
    dbName,
    serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
    maxPoolSize: 10,
    // Operations go to the driver at once, also while Mongoose counts the connection lost: its
    // buffering would hold them up to 10 s and then fail in a way no outage check knows (a 500
    // instead of the 503 after the driver's 1 s). The models are used only after `asPromise()`.
    bufferCommands: false,
  });
  // The client exists as soon as the connection is created; it connects after this.
  const poolStats = watchPool(connection.getClient());
  await connection.asPromise();
  const handlers = registerHandlerModel(connection);
  const admins = registerAccountModel(connection);
  const history = registerHistoryModel(connection, retentionSeconds);
  try {
    await Promise.all([handlers.init(), admins.init(), initHistory(history, retentionSeconds)]);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    connection,
    handlers,
    admins,
    history,
    ping: async () => {
      await connection.db!.command({ ping: 1 });
    },
    poolStats,
    close: () => connection.close(),
  };
}

/**
 * Builds the history's indexes; when the retention period changed since the TTL index was built,
 * changes the index's period in place (collMod) rather than failing.
 */
async function initHistory(history: HistoryModel, retentionSeconds: number): Promise<void> {
  try {
    await history.init();
  } catch (error) {
    if ((error as { code?: number }).code !== INDEX_OPTIONS_CONFLICT) throw error;
    await history.db.db!.command({
      collMod: history.collection.collectionName,
      index: { name: HISTORY_TTL_INDEX, expireAfterSeconds: retentionSeconds },
    });
  }
}
