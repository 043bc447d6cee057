import type { CursorRegistry, ResultSource } from '../cursors.js';
import { CommandError, type Doc } from '../errors.js';
import type { Store } from '../storage/store.js';
import { batchReply } from '../wire/cursor-reply.js';

export interface CommandContext {
  store: Store;
  cursors: CursorRegistry;
  /** From the command's `$db` (OP_MSG) or the `db.$cmd` namespace (OP_QUERY). */
  db: string;
  connectionId: number;
  remoteAddress: string;
  /** Set while the command runs inside a multi-document transaction. */
  transaction?: TransactionScope;
}

/** What a command needs to know about the transaction it runs in. */
export interface TransactionScope {
  /** Cursors opened inside the transaction: killed if it aborts (they may hold its writes). */
  cursorIds: Set<number>;
}

/** A command handler: MongoDB commands are synchronous here (everything is in memory). */
export type CommandHandler = (cmd: Doc, ctx: CommandContext) => Doc;

/** The collection name a command addresses, e.g. `cmd.find`. */
export function collectionName(cmd: Doc, command: string): string {
  const name = cmd[command];
  if (typeof name !== 'string' || name.length === 0) {
    throw new CommandError(
      73,
      'InvalidNamespace',
      `collection name has invalid type ${typeof name}`,
    );
  }
  return name;
}

export function optionalDoc(cmd: Doc, field: string): Doc | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new CommandError(
      14,
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${Array.isArray(value) ? 'array' : typeof value}', expected type 'object'`,
    );
  }
  return value as Doc;
}

export function optionalNumber(cmd: Doc, field: string): number | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) {
    throw new CommandError(
      14,
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${typeof value}', expected types '[long, int, decimal, double]'`,
    );
  }
  return n;
}

/** `{ cursor: { firstBatch, id, ns }, ok: 1 }` for a freshly computed result. */
export function cursorReply(
  ctx: CommandContext,
  ns: string,
  docs: readonly Doc[],
  cmd: Doc,
  source?: ResultSource,
): Doc {
  const cursorOpts = optionalDoc(cmd, 'cursor');
  const batchSize =
    optionalNumber(cmd, 'batchSize') ?? optionalNumber(cursorOpts ?? {}, 'batchSize');
  const batch = ctx.cursors.open(ns, docs, batchSize, cmd.singleBatch === true, source);
  if (ctx.transaction && !batch.id.isZero()) ctx.transaction.cursorIds.add(batch.id.toNumber());
  return batchReply('firstBatch', batch.docs, batch.encoded, batch.id, ns);
}
