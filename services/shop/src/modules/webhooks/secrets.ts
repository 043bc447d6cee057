import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes, base64. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The last key derived (a process uses one WEBHOOK_SECRET_KEY): not hashed again per secret. */
let lastKey: { secretKey: string; key: Buffer } | undefined;

/** The AES-256 key: the SHA-256 of WEBHOOK_SECRET_KEY (at least 32 characters). */
const keyOf = (secretKey: string): Buffer => {
  if (lastKey?.secretKey !== secretKey) {
    lastKey = { secretKey, key: createHash('sha256').update(secretKey).digest() };
  }
  return lastKey.key;
};

/**
 * A secret as stored: AES-256-GCM under WEBHOOK_SECRET_KEY with a random 96-bit nonce,
 * `v1.<nonce>.<tag>.<ciphertext>` in base64url. A copy of the table alone reveals no secret, and
 * a changed row fails authentication instead of signing with a forged secret.
 */
export function sealSecret(secretKey: string, secret: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey), nonce);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', nonce, cipher.getAuthTag(), sealed].map(encode).join('.');
}

const encode = (part: string | Buffer) =>
  typeof part === 'string' ? part : part.toString('base64url');

export function openSecret(secretKey: string, stored: string): string {
  const [version, nonce, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !nonce || !tag || !sealed) throw new Error('unknown sealed secret');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    keyOf(secretKey),
    Buffer.from(nonce, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(sealed, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/**
 * What a worker made of its webhooks' sealed secrets (opened, and ready to sign with), so that a
 * delivery does not decrypt its webhook's secret again. Kept per webhook and role (current,
 * previous) with the sealed value it came from: a rotation stores a new sealed value (a new
 * nonce), so the next delivery finds it changed, opens the new one and drops the one kept; the
 * previous secret during an overlap is the old sealed value, kept as such. A deleted webhook's
 * entries stay until the cache is full, when it starts over.
 */
export class OpenedSecrets<T> {
  private readonly kept = new Map<string, { sealed: string; opened: T }>();

  constructor(
    private readonly open: (sealed: string) => T,
    private readonly max = 1_000,
  ) {}

  get(webhookId: number, role: 'current' | 'previous', sealed: string): T {
    const key = `${webhookId}:${role}`;
    const kept = this.kept.get(key);
    if (kept?.sealed === sealed) return kept.opened;
    const opened = this.open(sealed);
    if (!kept && this.kept.size >= this.max) this.kept.clear();
    this.kept.set(key, { sealed, opened });
    return opened;
  }

  /** Entries kept (for tests). */
  get size(): number {
    return this.kept.size;
  }
}
