// Command dispatch: the first key of the command document names the command (MongoDB's rule);
// everything a handler throws becomes an `{ ok: 0, errmsg, code, codeName }` reply. Transactions
// (`startTransaction`, `commitTransaction`, `abortTransaction`, and when a command may run at
// all) are the coordinator's business: src/transactions.ts, which calls `runCommand`.
import { toErrorFields, type Doc } from '../errors.js';
import { aggregateCommands } from './aggregate.js';
import type { CommandContext, CommandHandler } from './context.js';
import { findAndModifyCommands } from './find-and-modify.js';
import { handshakeCommands } from './handshake.js';
import { indexCommands } from './indexes.js';
import { namespaceCommands } from './namespaces.js';
import { readCommands } from './read.js';
import { writeCommands } from './write.js';

const handlers = new Map<string, CommandHandler>(
  Object.entries({
    ...handshakeCommands,
    ...namespaceCommands,
    ...indexCommands,
    ...writeCommands,
    ...findAndModifyCommands,
    ...readCommands,
    ...aggregateCommands,
  }),
);

/** Answered by the transaction coordinator, not by a handler here. */
export const TRANSACTION_COMMANDS = ['commitTransaction', 'abortTransaction'] as const;

export const supportedCommands = (): string[] => [
  ...Array.from(handlers.keys()),
  ...TRANSACTION_COMMANDS,
];

export const isCommand = (name: string): boolean => handlers.has(name);

export function runCommand(command: Doc, ctx: CommandContext): Doc {
  const name = Object.keys(command)[0] ?? '';
  const handler = handlers.get(name);
  if (!handler) {
    return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
  }
  try {
    return handler(command, ctx);
  } catch (err) {
    return { ok: 0, ...toErrorFields(err) };
  }
}
