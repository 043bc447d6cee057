import type { Db } from '../../db/client.js';

export interface ApiKeyInfo {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

const infoSelect = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  revokedAt: true,
} as const;

export const insertApiKey = (
  db: Db,
  key: { name: string; keyHash: string; prefix: string },
): Promise<ApiKeyInfo> => db.apiKey.create({ data: key, select: infoSelect });

/** Inserts the key unless its hash is already stored (then returns the stored one). */
export const upsertApiKey = (
  db: Db,
  key: { name: string; keyHash: string; prefix: string },
): Promise<ApiKeyInfo> =>
  db.apiKey.upsert({
    where: { keyHash: key.keyHash },
    create: key,
    update: {},
    select: infoSelect,
  });

export const findAllApiKeys = (db: Db): Promise<ApiKeyInfo[]> =>
  db.apiKey.findMany({ select: infoSelect, orderBy: { id: 'asc' } });

export const findRevocation = (db: Db, id: number) =>
  db.apiKey.findUnique({ where: { id }, select: { revokedAt: true } });

export async function markRevoked(db: Db, id: number): Promise<void> {
  await db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
}

export const findRevocationByHash = (db: Db, keyHash: string) =>
  db.apiKey.findUnique({ where: { keyHash }, select: { revokedAt: true } });
