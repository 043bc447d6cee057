// Operator commands. Each runs against MONGODB_URI, or the embedded database of the data folder:
// while the server is running they use its database, otherwise they start it themselves.
import { parseArgs } from 'node:util';
import { readConfig } from '../config.js';
import { openDirectoryDb, type DirectoryDb } from '../db/connection.js';
import { openDatabase } from '../db/open-database.js';
import { isAccountRole } from '../modules/accounts/rules.js';
import {
  AccountError,
  createAccount,
  disableAccount,
  listAccounts,
} from '../modules/accounts/service.js';

const USAGE = `usage: handler-directory <command>
  admin:create <username> [--role admin|viewer]  create an account (password: prompt, stdin or ADMIN_PASSWORD)
  admin:list                                      list accounts
  admin:disable <username>                        disable an account (its tokens stop working at once)
  mongod:download                                 fetch a mongod binary for mongodb-memory-server (needs internet)`;

/** Where a command writes, and how it asks for a new password. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  readPassword: () => Promise<string>;
}

type Command = (args: string[], db: () => Promise<DirectoryDb>, io: CliIo) => Promise<number>;

const commands: Record<string, Command> = {
  'admin:create': async (args, db, io) => {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: { role: { type: 'string', default: 'admin' } },
    });
    const username = positionals[0];
    if (!username) return usageError(io, 'admin:create needs a username');
    if (!isAccountRole(values.role)) return usageError(io, `unknown role: ${values.role}`);
    const password = await io.readPassword();
    try {
      const account = await createAccount(await db(), { username, password, role: values.role });
      io.out(`created ${account.role} "${account.username}" (${account.id})`);
      return 0;
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      io.err(`admin:create: ${error.message}`);
      return 1;
    }
  },
  'admin:list': async (_args, db, io) => {
    const accounts = await listAccounts(await db());
    if (accounts.length === 0) io.out('no accounts');
    for (const a of accounts) {
      const state = a.disabledAt ? `disabled ${a.disabledAt.toISOString()}` : 'active';
      io.out(`${a.username}\t${a.role}\t${state}\tcreated ${a.createdAt.toISOString()}\t${a.id}`);
    }
    return 0;
  },
  'admin:disable': async (args, db, io) => {
    const username = args[0];
    if (!username) return usageError(io, 'admin:disable needs a username');
    if (!(await disableAccount(await db(), username))) {
      io.err(`no account "${username}"`);
      return 1;
    }
    io.out(`disabled "${username.toLowerCase()}"`);
    return 0;
  },
};

function usageError(io: CliIo, message: string): number {
  io.err(`${message}\n${USAGE}`);
  return 2;
}

async function downloadMongod(io: CliIo): Promise<number> {
  const { MongoBinary } = await import('mongodb-memory-server-core');
  io.out(`mongod ready: ${await MongoBinary.getPath()}`);
  return 0;
}

/** Runs one command; resolves to the process exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'mongod:download') return downloadMongod(io);
  const command = name ? commands[name] : undefined;
  if (!command) return usageError(io, name ? `unknown command: ${name}` : 'no command given');
  const config = readConfig(env);
  const database = await openDatabase({
    uri: config.mongodbUri,
    waitMs: config.databaseWaitMs,
    dataDir: config.dataDir,
    joinRunning: true,
    log: io.err,
  });
  let db: DirectoryDb | undefined;
  try {
    return await command(
      args,
      async () =>
        (db ??= await openDirectoryDb(database.url, {
          historyRetentionDays: config.historyRetentionDays,
        })),
      io,
    );
  } finally {
    await db?.close();
    await database.close();
  }
}
