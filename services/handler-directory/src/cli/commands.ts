// Operator commands. Each runs against MONGODB_URI, or the embedded database of the data folder:
// while the server is running they use its database, otherwise they start it themselves.
import { parseArgs } from 'node:util';
import { readConfig } from '../config.js';
import { openDirectoryDb, type DirectoryDb } from '../db/connection.js';
import { openMongoTarget } from '../db/mongo-target.js';
import { isAdminRole } from '../domain/admin-account.js';
import { AdminAccountError, createAdmin, disableAdmin, listAdmins } from '../services/admins.js';

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
    if (!isAdminRole(values.role)) return usageError(io, `unknown role: ${values.role}`);
    const password = await io.readPassword();
    try {
      const admin = await createAdmin(await db(), { username, password, role: values.role });
      io.out(`created ${admin.role} "${admin.username}" (${admin.id})`);
      return 0;
    } catch (error) {
      if (!(error instanceof AdminAccountError)) throw error;
      io.err(`admin:create: ${error.message}`);
      return 1;
    }
  },
  'admin:list': async (_args, db, io) => {
    const admins = await listAdmins(await db());
    if (admins.length === 0) io.out('no accounts');
    for (const a of admins) {
      const state = a.disabledAt ? `disabled ${a.disabledAt.toISOString()}` : 'active';
      io.out(`${a.username}\t${a.role}\t${state}\tcreated ${a.createdAt.toISOString()}\t${a.id}`);
    }
    return 0;
  },
  'admin:disable': async (args, db, io) => {
    const username = args[0];
    if (!username) return usageError(io, 'admin:disable needs a username');
    if (!(await disableAdmin(await db(), username))) {
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
  const mongo = await openMongoTarget({
    uri: config.mongodbUri,
    waitMs: config.databaseWaitMs,
    dataDir: config.dataDir,
    joinRunning: true,
    log: io.err,
  });
  let db: DirectoryDb | undefined;
  try {
    return await command(args, async () => (db ??= await openDirectoryDb(mongo.uri)), io);
  } finally {
    await db?.close();
    await mongo.close();
  }
}
