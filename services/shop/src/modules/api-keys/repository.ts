import type { Db, Tx } from '../../db/client.js';
import type { ApiKeyKind } from '../../generated/prisma/client.js';

export interface ApiKeyInfo {
  id: number;
  name: string;
  kind: ApiKeyKind;
  scopes: string[];
  prefix: string;
  publicValue: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** What a request's key opens: looked up on every request (or remembered for a few seconds). */
export interface ActiveKey {
  id: number;
  name: string;
  kind: ApiKeyKind;
  scopes: string[];
}

export interface NewApiKey {
  name: string;
  kind: ApiKeyKind;
  scopes: string[];
  keyHash: string;
  prefix: string;
  publicValue: string | null;
}

const infoSelect = {
  id: true,
  name: true,
  kind: true,
  scopes: true,
  prefix: true,
  publicValue: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
} as const;

export const insertApiKey = (db: Db | Tx, key: NewApiKey): Promise<ApiKeyInfo> =>
  db.apiKey.create({ data: key, select: infoSelect });

/** Inserts the key unless its hash is already stored (then returns the stored one). */
export const upsertApiKey = (db: Db, key: NewApiKey): Promise<ApiKeyInfo> =>
  db.apiKey.upsert({
    where: { keyHash: key.keyHash },
    create: key,
    update: {},
    select: infoSelect,
  });

export const findAllApiKeys = (db: Db): Promise<ApiKeyInfo[]> =>
  db.apiKey.findMany({ select: infoSelect, orderBy: { id: 'asc' } });

export const findApiKey = (db: Db | Tx, id: number): Promise<ApiKeyInfo | null> =>
  db.apiKey.findUnique({ where: { id }, select: infoSelect });

export async function markRevoked(db: Db | Tx, id: number): Promise<void> {
  await db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
}

/**
 * The unrevoked key with this hash, or null; in the same statement its `last_used_at` is
 * refreshed when older than a minute, so a key in use costs at most one write a minute.
 */
export async function findActiveKeyTouching(db: Db, keyHash: string): Promise<ActiveKey | null> {
  const [row] = await db.$queryRaw<ActiveKey[]>`
    WITH found AS (
      SELECT id, name, kind, scopes, last_used_at FROM api_keys
       WHERE key_hash = ${keyHash} AND revoked_at IS NULL
    ), touched AS (
      UPDATE api_keys a SET last_used_at = now()
        FROM found f
       WHERE a.id = f.id AND (f.last_used_at IS NULL OR f.last_used_at < now() - interval '1 minute')
    )
    SELECT id, name, kind::text AS kind, scopes FROM found`;
  return row ?? null;
}
