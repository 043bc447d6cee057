import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, jest } from '@jest/globals';
import {
  hashPassword,
  setPasswordThreadNiceness,
  verifyAgainstDummy,
  verifyPassword,
} from '../src/passwords.js';

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

  it('hashes on threads whose priority is lowered by the configured niceness (Linux)', async () => {
    /** The nice value of a thread of this process (field 19 of /proc/<pid>/task/<tid>/stat). */
    const niceOf = (tid: string | number) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const niceValues = () => readdirSync('/proc/self/task').map(niceOf);
    // The main thread's id is the process's; the list is not in start order once the kernel's
    // ids have wrapped around (a newer thread can have a smaller id).
    const own = niceOf(process.pid);
    setPasswordThreadNiceness(7);
    try {
      await hashPassword('on a thread at lower priority');
      expect(niceValues()).toContain(own + 7);
    } finally {
      setPasswordThreadNiceness(10);
    }
  });
});
