// Connection-level commands: the handshake and the harmless queries tools send around it.
import type { Doc } from '../errors.js';
import type { CommandContext, CommandHandler } from './context.js';

/** MongoDB 7.0's wire version; drivers 6/7 accept it and enable every feature we emulate. */
export const MAX_WIRE_VERSION = 21;
export const SERVER_VERSION = '7.0.0';

function hello(legacy: boolean): CommandHandler {
  return (cmd: Doc, ctx: CommandContext) => ({
    // No `topologyVersion`: without it drivers poll `hello` instead of using streaming
    // (exhaust) monitoring, which we don't implement.
    ...(cmd.helloOk ? { helloOk: true } : {}),
    ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    // Advertising sessions makes drivers attach `lsid`s, which transactions need (see
    // src/transactions.ts). No `setName`: the driver sends transactions to a standalone server
    // too (it leaves the refusal to the server), so `directConnection` works as before.
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  });
}

export const handshakeCommands: Record<string, CommandHandler> = {
  hello: hello(false),
  isMaster: hello(true),
  ismaster: hello(true),
  ping: () => ({ ok: 1 }),
  buildInfo: () => ({
    version: SERVER_VERSION,
    gitVersion: 'mongo-wire-server',
    versionArray: [7, 0, 0, 0],
    bits: 64,
    maxBsonObjectSize: 16 * 1024 * 1024,
    storageEngines: [],
    standIn: 'mongo-wire-server: development and tests only, not MongoDB',
    ok: 1,
  }),
  getParameter: (cmd) => ({
    ...(cmd.featureCompatibilityVersion ? { featureCompatibilityVersion: { version: '7.0' } } : {}),
    ok: 1,
  }),
  getCmdLineOpts: () => ({ argv: ['mongo-wire-server'], parsed: {}, ok: 1 }),
  whatsmyuri: (_cmd, ctx) => ({ you: ctx.remoteAddress, ok: 1 }),
  connectionStatus: () => ({
    authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
    ok: 1,
  }),
  // The transaction coordinator has already aborted the sessions' open transactions, if any.
  endSessions: () => ({ ok: 1 }),
};
