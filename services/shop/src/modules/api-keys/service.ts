import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey as ApiKeyView, CreateApiKeyBody } from '@dogshop/contracts/shop';
import { badRequest, type Invalidation } from '@dogshop/service-kit';
import { LRUCache } from 'lru-cache';
import type { Db, Tx } from '../../db/client.js';
import type { ApiKeyKind } from '../../generated/prisma/client.js';
import { API_KEY_SCOPES, type ApiKeyScope } from '../access/policy.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import {
  findActiveKeyTouching,
  findAllApiKeys,
  findApiKey,
  insertApiKey,
  markRevoked,
  upsertApiKey,
  type ActiveKey,
  type ApiKeyInfo,
} from './repository.js';

export type { ActiveKey, ApiKeyInfo };

/** Publishable keys start `pk_`, secret keys `sk_`; keys made before kinds existed `shop_`. */
const KIND_PREFIX: Record<ApiKeyKind, string> = { publishable: 'pk_', secret: 'sk_' };

/**
 * The invalidation topic of the API keys: a revocation publishes it, and every replica's
 * apiKeyChecker forgets the keys it remembered.
 */
export const API_KEYS_TOPIC = 'api-keys';

/** Keys carry 256 random bits, so SHA-256 is a safe, constant-cost way to store them. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** What a new key is: its kind and, for a secret key, its scopes (every scope by default). */
export interface KeyGrant {
  kind: ApiKeyKind;
  scopes?: readonly ApiKeyScope[];
}

const ALL_SCOPES: KeyGrant = { kind: 'secret', scopes: API_KEY_SCOPES };

/** A secret key needs scopes, a publishable key takes none (400 otherwise). */
function grantedScopes({ kind, scopes }: KeyGrant): string[] {
  if (kind === 'publishable') {
    if (scopes?.length) throw badRequest('a publishable key takes no scopes');
    return [];
  }
  if (!scopes?.length) throw badRequest('a secret key needs at least one scope');
  return [...new Set(scopes)];
}

/** Creates a key; the plain key is returned once, and only a publishable key is kept as it is. */
export async function createApiKey(
  db: Db | Tx,
  name: string,
  grant: KeyGrant = ALL_SCOPES,
): Promise<{ key: string; info: ApiKeyInfo }> {
  const scopes = grantedScopes(grant);
  const key = KIND_PREFIX[grant.kind] + randomBytes(32).toString('base64url');
  const info = await insertApiKey(db, {
    name,
    kind: grant.kind,
    scopes,
    keyHash: hashApiKey(key),
    prefix: key.slice(0, 12),
    publicValue: grant.kind === 'publishable' ? key : null,
  });
  return { key, info };
}

/**
 * Registers a key given from outside (SHOP_API_KEY) as a secret key with every scope; a no-op
 * when it is already known.
 */
export const registerApiKey = (db: Db, name: string, key: string): Promise<ApiKeyInfo> =>
  upsertApiKey(db, {
    name,
    kind: 'secret',
    scopes: [...API_KEY_SCOPES],
    keyHash: hashApiKey(key),
    prefix: key.slice(0, 12),
    publicValue: null,
  });

export const listApiKeys = (db: Db): Promise<ApiKeyInfo[]> => findAllApiKeys(db);

/**
 * Returns false when no such key exists; revoking twice keeps the first revocation time. After
 * the revocation, `changed` tells the running replicas (invalidation.publish(API_KEYS_TOPIC)),
 * also when the key was revoked already, in case that earlier announcement did not get through.
 */
export async function revokeApiKey(
  db: Db | Tx,
  id: number,
  changed: () => Promise<unknown> = async () => {},
): Promise<boolean> {
  const found = await findApiKey(db, id);
  if (!found) return false;
  if (!found.revokedAt) await markRevoked(db, id);
  await changed();
  return true;
}

/** A key as the back office lists it: a secret key only by its first characters. */
export const toApiKeyView = (info: ApiKeyInfo): ApiKeyView => ({
  id: info.id,
  type: info.kind,
  title: info.name,
  redacted: `${info.prefix}…`,
  key: info.publicValue,
  scopes: info.scopes as ApiKeyScope[],
  created_at: info.createdAt.toISOString(),
  revoked_at: info.revokedAt?.toISOString() ?? null,
  last_used_at: info.lastUsedAt?.toISOString() ?? null,
});

/** The body of POST /admin/api-keys as a grant. */
export const grantOf = (body: CreateApiKeyBody): KeyGrant => ({
  kind: body.type,
  ...(body.scopes ? { scopes: body.scopes } : {}),
});

/**
 * The active key a request carries (null: unknown or revoked), remembered for `ttlMs`: every API
 * request checks its key, and the lookup would otherwise be one more database round trip per
 * request. The lookup refreshes the key's `last_used_at` (at most once a minute), so that is
 * accurate to within `ttlMs` plus a minute. Unknown and revoked keys are never remembered, so a
 * new key works at once and guessing cannot fill the cache (creating a key therefore needs no
 * announcement).
 *
 * A revocation (the API, the CLI, another process) publishes API_KEYS_TOPIC on `invalidation`,
 * and every replica forgets what it remembered at once. What no publish reaches is bounded by
 * `ttlMs`: a CLI run without REDIS_URL, or one that could not reach Redis. While this process is
 * not sure to hear the signal (`invalidation.listening` false: Redis down), nothing is
 * remembered and every request looks its key up. 0 turns the cache off.
 */
export function apiKeyChecker(
  db: Db,
  ttlMs: number,
  invalidation: Invalidation,
): { activeKey: (key: string) => Promise<ActiveKey | null>; close: () => void } {
  const lookUp = (key: string) => findActiveKeyTouching(db, hashApiKey(key));
  if (ttlMs <= 0) return { activeKey: lookUp, close: () => {} };
  const active = new LRUCache<string, ActiveKey>({ max: 1_000, ttl: ttlMs });
  /** Counts revocations heard; a lookup that overlapped one is not remembered. */
  let generation = 0;
  const close = invalidation.subscribe(API_KEYS_TOPIC, () => {
    generation += 1;
    active.clear();
  });
  const activeKey = async (key: string) => {
    if (!invalidation.listening) {
      active.clear();
      return lookUp(key);
    }
    const remembered = active.get(key);
    if (remembered) return remembered;
    const started = generation;
    const found = await lookUp(key);
    if (found && generation === started && invalidation.listening) active.set(key, found);
    return found;
  };
  return { activeKey, close };
}

/** Whether the key is known and unrevoked (no cache: the CLI and tests). */
export const isActiveApiKey = async (db: Db, key: string): Promise<boolean> =>
  (await findActiveKeyTouching(db, hashApiKey(key))) !== null;

/** What the audit keeps of a key: never the key nor its hash. */
const auditedKey = (info: ApiKeyInfo) => ({
  title: info.name,
  type: info.kind,
  scopes: info.scopes,
  revoked: info.revokedAt !== null,
});

/** POST /admin/api-keys: the key (shown once) and its audit entry. */
export async function createApiKeyAudited(
  db: Db,
  actor: Actor,
  body: CreateApiKeyBody,
): Promise<{ key: string; info: ApiKeyInfo }> {
  return db.$transaction(async (tx) => {
    const created = await createApiKey(tx, body.title.trim(), grantOf(body));
    await insertAuditEntry(tx, actor, {
      action: 'api_key.create',
      resource: 'api_key',
      resourceId: created.info.id,
      after: auditedKey(created.info),
    });
    return created;
  });
}

/** DELETE /admin/api-keys/{id}: revokes (see revokeApiKey) and records it; false when unknown. */
export async function revokeApiKeyAudited(
  db: Db,
  actor: Actor,
  id: number,
  changed: () => Promise<unknown>,
): Promise<boolean> {
  const before = await db.$transaction(async (tx) => {
    const found = await findApiKey(tx, id);
    if (found && !found.revokedAt) {
      await markRevoked(tx, id);
      await insertAuditEntry(tx, actor, {
        action: 'api_key.revoke',
        resource: 'api_key',
        resourceId: id,
        before: auditedKey(found),
        after: { ...auditedKey(found), revoked: true },
      });
    }
    return found;
  });
  if (!before) return false;
  // Announced after the commit (also when it was revoked already, as revokeApiKey does).
  await changed();
  return true;
}
