// Command dispatch: the first key of the command document names the command (MongoDB's rule);
// everything a handler throws becomes an `{ ok: 0, errmsg, code, codeName }` reply.
import { CommandError, toErrorFields, type Doc } from '../errors.js';
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

export const supportedCommands = (): string[] => Array.from(handlers.keys());

export function runCommand(command: Doc, ctx: CommandContext): Doc {
  const name = Object.keys(command)[0] ?? '';
  const handler = handlers.get(name);
  if (!handler) {
    return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
  }
  try {
    if (command.startTransaction) {
      // What a standalone mongod answers; we keep no transaction state, so we can't pretend.
      throw new CommandError(
        20,
        'IllegalOperation',
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    return handler(command, ctx);
  } catch (err) {
    return { ok: 0, ...toErrorFields(err) };
  }
}
