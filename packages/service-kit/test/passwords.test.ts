import { describe, expect, it, jest } from '@jest/globals';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../src/passwords.js';

// The password threads run at a lower priority on purpose: while turbo runs every package's
// checks in parallel on a small machine they get little CPU, so a few hashes can take seconds.
jest.setTimeout(60_000);

describe('password hashing (on the low-priority password threads)', () => {
  it('hashes with argon2id at the OWASP parameters and verifies the password, and only it', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery stapler')).toBe(false);
  });

  it('answers false for a stored value that is not an argon2 hash', async () => {
    expect(await verifyPassword('not a hash', 'whatever')).toBe(false);
    expect(await verifyAgainstDummy('whatever')).toBe(false);
  });

  it('queues more verifications than there are threads and answers each one correctly', async () => {
    const hash = await hashPassword('pw-1');
    const passwords = Array.from({ length: 9 }, (_, i) => `pw-${i}`);
    const results = await Promise.all(passwords.map((p) => verifyPassword(hash, p)));
    expect(results).toEqual(passwords.map((p) => p === 'pw-1'));
  });
});
