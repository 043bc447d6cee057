// Operator commands. Each runs against DATABASE_URL, or the embedded database of the data folder:
// while the server is running they use its database, otherwise they start it themselves.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HttpError, openSharedState } from '@dogshop/service-kit';
import { readConfig, type ShopConfig } from '../config.js';
import { createDb, type Db } from '../db/client.js';
import { createMigration } from '../db/migrations.js';
import { openDatabase, type OpenedDatabase } from '../db/open-database.js';
import {
  API_KEY_SCOPES,
  STAFF_ROLES,
  isApiKeyScope,
  type ApiKeyScope,
  type StaffRole,
} from '../modules/access/policy.js';
import {
  API_KEYS_TOPIC,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from '../modules/api-keys/service.js';
import {
  demoCatalogue,
  existingCategories,
  importCatalogue,
  parseCatalogue,
} from '../modules/catalogue-import/service.js';
import { createStaff } from '../modules/staff/service.js';

const USAGE = `usage: shop <command>
  migrate                      apply pending migrations
  migrate:new <name> [--empty] generate a migration from prisma/schema.prisma
  seed                         load the demo catalogue (upsert)
  catalogue:import <file.json> validate the whole file, then import it (all or nothing)
  api-key:create <name> [--publishable | --scopes a,b]
                               create an API key (shown once): secret with every scope by
                               default, or with the scopes named, or publishable (a storefront's)
  api-key:list                 list API keys
  staff:create <email> <name> [--role admin|staff|viewer]
                               create a staff account (default role staff) and print its
                               one-time set-password token (72 h)
  api-key:revoke <id>          revoke an API key`;

/** Where a command writes. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

type Command = (
  args: string[],
  db: () => Promise<Db>,
  io: CliIo,
  database: OpenedDatabase,
  config: ShopConfig,
) => Promise<number>;

const commands: Record<string, Command> = {
  migrate: async (_args, _db, io, database) => {
    io.out(
      database.applied.length > 0
        ? `applied migrations: ${database.applied.join(', ')}`
        : 'no pending migrations',
    );
    return 0;
  },

  'migrate:new': async (args, _db, io, { url }) => {
    const name = args.find((a) => !a.startsWith('--'));
    if (!name) return usageError(io, 'migrate:new needs a name');
    const folder = await createMigration({
      databaseUrl: url,
      name,
      empty: args.includes('--empty'),
    });
    io.out(folder ? `created ${folder}` : 'schema.prisma has no changes; nothing created');
    return 0;
  },
  seed: async (_args, db, io) => {
    const summary = await importCatalogue(await db(), demoCatalogue());
    io.out(`demo catalogue: ${summary.categories} categories, ${summary.products} products`);
    return 0;
  },
  'catalogue:import': async (args, db, io) => {
    if (!args[0]) return usageError(io, 'catalogue:import needs a file');
    // Named in full in messages: through `pnpm catalogue:import` the process runs in the package
    // folder, which may not be where the operator thinks a relative path starts.
    const file = path.resolve(args[0]);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      io.err(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return 1;
    }
    const parsed = parseCatalogue(text, await existingCategories(await db()));
    if (!parsed.ok) {
      io.err(`${file}: ${parsed.errors.length} problems, nothing imported`);
      for (const error of parsed.errors) io.err(`  ${error}`);
      return 1;
    }
    const summary = await importCatalogue(await db(), parsed.catalogue);
    io.out(`imported ${summary.categories} categories, ${summary.products} products`);
    return 0;
  },
  'api-key:create': async (args, db, io) => {
    const name = args[0];
    if (!name || name.startsWith('--')) return usageError(io, 'api-key:create needs a name');
    const scopes = option(args, '--scopes')?.split(',').filter(Boolean);
    const unknown = scopes?.filter((scope) => !isApiKeyScope(scope)) ?? [];
    if (unknown.length > 0) {
      return usageError(
        io,
        `unknown scope ${unknown.join(', ')} (scopes: ${API_KEY_SCOPES.join(', ')})`,
      );
    }
    const publishable = args.includes('--publishable');
    if (publishable && scopes) return usageError(io, 'a publishable key takes no --scopes');
    const { key, info } = await createApiKey(
      await db(),
      name,
      publishable
        ? { kind: 'publishable' }
        : { kind: 'secret', scopes: (scopes as ApiKeyScope[] | undefined) ?? API_KEY_SCOPES },
    );
    io.out(
      `created ${info.kind} API key #${info.id} "${info.name}"${info.kind === 'secret' ? ` with ${info.scopes.join(', ')}` : ''} (shown once, store it now):\n${key}`,
    );
    return 0;
  },
  'staff:create': async (args, db, io) => {
    const [email, name] = args.filter(
      (arg, i) => !arg.startsWith('--') && args[i - 1] !== '--role',
    );
    const role = option(args, '--role') ?? 'staff';
    if (!email || !name) return usageError(io, 'staff:create needs an e-mail address and a name');
    if (!isStaffRole(role))
      return usageError(io, `unknown role ${role} (roles: ${STAFF_ROLES.join(', ')})`);
    try {
      const { account, setPassword } = await createStaff(await db(), null, { email, name, role });
      io.out(
        `created ${account.role} account #${account.id} ${account.email}; its one-time set-password token (72 h, shown once):\n${setPassword!.token}\n` +
          `set the password with: POST /admin/auth/set-password {"token": "…", "password": "…"}`,
      );
      return 0;
    } catch (error) {
      if (error instanceof HttpError) {
        io.err(error.message);
        return 1;
      }
      throw error;
    }
  },
  'api-key:list': async (_args, db, io) => {
    const keys = await listApiKeys(await db());
    if (keys.length === 0) io.out('no API keys');
    for (const k of keys) {
      const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
      io.out(
        `#${k.id}\t${k.kind}\t${k.prefix}…\t${k.name}\tcreated ${k.createdAt.toISOString()}\t${state}`,
      );
    }
    return 0;
  },
  'api-key:revoke': async (args, db, io, _database, config) => {
    const id = Number(args[0]);
    if (!Number.isSafeInteger(id) || id < 1)
      return usageError(io, 'api-key:revoke needs a numeric id');
    let told = false;
    if (!(await revokeApiKey(await db(), id, async () => (told = await announce(config))))) {
      io.err(`no API key #${id}`);
      return 1;
    }
    io.out(`revoked API key #${id}`);
    if (!told) {
      io.err(
        `running servers stop accepting it within ${API_KEY_CACHE_SECONDS} s (their key cache); ` +
          (config.redisUrl ? 'Redis could not be told' : 'without REDIS_URL they cannot be told'),
      );
    }
    return 0;
  },
};

/** The servers' default API-key cache lifetime (app.ts `apiKeyCacheMs`). */
const API_KEY_CACHE_SECONDS = 5;

/**
 * Tells the running servers that the API keys changed, through REDIS_URL (their shared state);
 * whether Redis took the message. Without REDIS_URL there is no one to tell: the servers'
 * memory is their own.
 */
async function announce(config: ShopConfig): Promise<boolean> {
  if (!config.redisUrl) return false;
  const shared = await openSharedState({
    url: config.redisUrl,
    keyPrefix: 'shop:',
    // Its outage warning speaks of a server's limits; the command says what it means here.
    log: { warn: () => {}, info: () => {} },
  });
  try {
    return await shared.invalidation.publish(API_KEYS_TOPIC);
  } finally {
    await shared.close();
  }
}

/** The value after `--name` (`--name value`), if given. */
function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

const isStaffRole = (value: string): value is StaffRole =>
  (STAFF_ROLES as readonly string[]).includes(value);

function usageError(io: CliIo, message: string): number {
  io.err(`${message}\n${USAGE}`);
  return 2;
}

/** Runs one command; resolves to the process exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) return usageError(io, name ? `unknown command: ${name}` : 'no command given');
  const config = readConfig(env);
  // While the server runs, its embedded database is used (it has applied the migrations).
  const database = await openDatabase(config, { migrate: true, joinRunning: true, log: io.err });
  let db: Db | undefined;
  try {
    return await command(
      args,
      async () => (db ??= createDb(database.url, 2)),
      io,
      database,
      config,
    );
  } finally {
    await db?.$disconnect();
    await database.close();
  }
}
