import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { PACKAGE_ROOT } from '../config.js';

/**
 * Migrations through Prisma's own schema engine, in its WebAssembly build: the native engine the
 * Prisma CLI would download is not reachable in our offline builds. `applyMigrations` does what
 * `prisma migrate deploy` does (same `_prisma_migrations` table); `createMigration` writes what
 * `prisma migrate dev --create-only` would. Needs `node --experimental-wasm-modules` on Node 20.
 */
export const PRISMA_DIR = path.join(PACKAGE_ROOT, 'prisma');
const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');
const SCHEMA_FILE = path.join(PRISMA_DIR, 'schema.prisma');
const LOCKFILE = 'migration_lock.toml';
const NO_FILTERS = { externalTables: [], externalEnums: [] };

export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  return withEngine(databaseUrl, async (engine) => {
    const result = await engine.applyMigrations({
      migrationsList: await readMigrations(),
      filters: NO_FILTERS,
    });
    return result.appliedMigrationNames;
  });
}

/**
 * Diffs the applied migrations against schema.prisma and writes the difference as a new
 * migration folder. Returns its path, or null when the schema has no changes (unless `empty`,
 * which writes an empty migration to fill with what Prisma cannot express, e.g. CHECK constraints).
 */
export async function createMigration(opts: {
  databaseUrl: string;
  name: string;
  empty?: boolean;
}): Promise<string | null> {
  const schema = await readFile(SCHEMA_FILE, 'utf8');
  const sql = await withEngine(opts.databaseUrl, async (engine) => {
    const migrations = await readMigrations();
    const diff = await engine.diff({
      from: migrations.migrationDirectories.length
        ? { tag: 'migrations', ...migrations }
        : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_FILE, content: schema }] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    });
    return withoutKnownExtensions(diff.stdout ?? '', migrations);
  });
  const hasChanges = sql.trim() !== '' && !/^-- This is an empty migration\.?\s*$/.test(sql.trim());
  if (!hasChanges && !opts.empty) return null;
  const folder = `${timestamp()}_${opts.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  await mkdir(path.join(MIGRATIONS_DIR, folder), { recursive: true });
  await writeFile(
    path.join(MIGRATIONS_DIR, folder, 'migration.sql'),
    hasChanges ? sql : '-- This is an empty migration.\n',
  );
  await writeFile(path.join(MIGRATIONS_DIR, LOCKFILE), lockfileContent());
  return path.join(MIGRATIONS_DIR, folder);
}

/**
 * The engine's description of the shadow database (through the driver adapter) does not report
 * extensions, so every diff would repeat `CREATE EXTENSION IF NOT EXISTS` for ones an earlier
 * migration already created; those statements are dropped.
 */
function withoutKnownExtensions(sql: string, migrations: MigrationList): string {
  const earlier = migrations.migrationDirectories
    .map((d) => (d.migrationFile.content.tag === 'ok' ? d.migrationFile.content.value : ''))
    .join('\n');
  return sql
    .split(/\n(?=-- )/)
    .filter((block) => {
      const statement = block.match(/^CREATE EXTENSION IF NOT EXISTS "[^"]+";$/m)?.[0];
      return !(statement && earlier.includes(statement));
    })
    .join('\n');
}

async function withEngine<T>(
  databaseUrl: string,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await import('@prisma/schema-engine-wasm');
  const schema = await readFile(SCHEMA_FILE, 'utf8');
  // Our own pool, so that it is closed when we are done; the shadow database (for diffs) gets a
  // separate adapter from plain fields, since the adapter derives it by overriding `database`.
  const url = new URL(databaseUrl);
  const fields = {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    max: 2,
  };
  const pool = new IntrospectionPool(fields);
  pool.on('error', () => {}); // idle clients cut by a server shutdown; nothing to do
  const main = new PrismaPg(pool);
  const adapter: SqlMigrationAwareDriverAdapterFactory = {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: () => withCharColumns(pool),
    connectToShadowDb: async () => {
      // Our own shadow database rather than the adapter's: its clean-up drops the database
      // before closing the connections to it, which PostgreSQL refuses.
      const name = `prisma_shadow_${randomUUID().replaceAll('-', '')}`;
      // Typed as the base Pool: the override below only renames column types of its results.
      await (pool as pg.Pool).query(`CREATE DATABASE "${name}"`);
      const shadowPool = new IntrospectionPool({ ...fields, database: name });
      shadowPool.on('error', () => {});
      const shadow = await withCharColumns(shadowPool);
      const release = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await release();
        await shadowPool.end();
        await (pool as pg.Pool).query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      };
      return shadow;
    },
  };
  const engine = await SchemaEngine.new(
    { datamodels: [[SCHEMA_FILE, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(adapter),
  );
  try {
    return await fn(engine);
  } finally {
    engine.free();
    await pool.end();
  }
}

/**
 * The engine's schema description reads catalogue columns of PostgreSQL's internal `"char"` type
 * (OID 18, e.g. pg_constraint.contype). @prisma/adapter-pg 7.10 has no mapping for it and fails
 * the query, so this pool reports such columns as text and remembers where they were, and
 * `withCharColumns` hands them to the engine as the Character type it expects.
 */
class IntrospectionPool extends pg.Pool {
  charColumns: number[] = [];
  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (!(result instanceof Promise)) return result as never;
    return result.then((res: pg.QueryResult) => {
      this.charColumns = [];
      (res.fields ?? []).forEach((field, index) => {
        if (field.dataTypeID !== CHAR_OID) return;
        field.dataTypeID = TEXT_OID;
        this.charColumns.push(index);
      });
      return res;
    }) as never;
  }
}
const CHAR_OID = 18;
const TEXT_OID = 25;

async function withCharColumns(pool: IntrospectionPool): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPg(pool).connect();
  const queryRaw = adapter.queryRaw.bind(adapter);
  // The engine runs its description queries one at a time, so the pool's last result is ours.
  adapter.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of pool.charColumns) result.columnTypes[index] = ColumnTypeEnum.Character;
    return result;
  };
  adapter.executeScript = (script) => executeWhole(pool, script);
  return adapter;
}

/**
 * Runs a migration script as the native engine does: the whole script in one simple-protocol
 * query, which PostgreSQL runs as one implicit transaction (all of it or none). @prisma/adapter-pg
 * 7.10 splits the script at every `;` and runs the pieces one by one outside a transaction, which
 * breaks function bodies (`$$ … ; … $$`) and refuses `LOCK TABLE`.
 */
async function executeWhole(pool: pg.Pool, script: string): Promise<void> {
  try {
    await pool.query(script);
  } catch (error) {
    if (!(error instanceof pg.DatabaseError)) throw error;
    throw new DriverAdapterError({
      kind: 'postgres',
      code: error.code ?? 'N/A',
      severity: error.severity ?? 'N/A',
      message: error.message,
      detail: error.detail,
      column: error.column,
      hint: error.hint,
    });
  }
}

async function readMigrations(): Promise<MigrationList> {
  await mkdir(MIGRATIONS_DIR, { recursive: true });
  const entries = await readdir(MIGRATIONS_DIR, { withFileTypes: true });
  const folders = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockfile = await readFile(path.join(MIGRATIONS_DIR, LOCKFILE), 'utf8').catch(() => null);
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: LOCKFILE, content: lockfile ?? lockfileContent() },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      folders.map(async (folder) => ({
        path: folder,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(path.join(MIGRATIONS_DIR, folder, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

function lockfileContent(): string {
  return [
    '# Please do not edit this file manually',
    '# It should be added in your version-control system (e.g., Git)',
    'provider = "postgresql"',
    '',
  ].join('\n');
}

function timestamp(): string {
  return new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
