import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { LoginLimiter, type LoginLimiterOptions } from '../src/login-limiter.js';

const WINDOW = 60_000;

afterEach(() => {
  jest.useRealTimers();
});

/**
 * A limiter in memory, on a clock the test moves: jest's fake timers, which rate-limiter-flexible's
 * memory store reads (Date.now) and ends its windows with (setTimeout).
 */
function limiterAt(start: number, limits: Partial<LoginLimiterOptions> = {}) {
  jest.useFakeTimers({ now: start, doNotFake: ['nextTick', 'queueMicrotask'] });
  const clock = {
    get now() {
      return Date.now();
    },
    set now(to: number) {
      jest.advanceTimersByTime(to - Date.now());
    },
  };
  const limiter = new LoginLimiter({
    maxFailures: 3,
    accountMaxFailures: 5,
    windowMs: WINDOW,
    ...limits,
  });
  let checks = 0;
  /** One login: `right` says whether the password is correct; counts the password checks. */
  const login = (address: string, account: string, right = false) =>
    limiter.attempt(address, account, async () => {
      checks += 1;
      return right ? { account } : null;
    });
  return { clock, limiter, login, checks: () => checks };
}

describe('LoginLimiter', () => {
  it('refuses an address+account after the maximum failures until the window ends, without checking', async () => {
    const { clock, login, checks } = limiterAt(1_000_000);
    for (let i = 0; i < 3; i += 1)
      expect(await login('10.0.0.1', 'anna')).toEqual({ limited: false, account: null });
    expect(checks()).toBe(3);
    expect(await login('10.0.0.1', 'anna', true)).toEqual({ limited: true, retryAfterSeconds: 60 });
    expect(checks()).toBe(3);
    clock.now += 59_500;
    expect(await login('10.0.0.1', 'anna', true)).toEqual({ limited: true, retryAfterSeconds: 1 });
    clock.now += 500;
    expect(await login('10.0.0.1', 'anna', true)).toEqual({
      limited: false,
      account: { account: 'anna' },
    });
  });

  it('counts per address and account: another address or account is unaffected', async () => {
    const { login } = limiterAt(0);
    for (let i = 0; i < 3; i += 1) await login('10.0.0.1', 'anna');
    expect((await login('10.0.0.1', 'anna')).limited).toBe(true);
    expect(await login('10.0.0.2', 'anna', true)).toMatchObject({ limited: false });
    expect(await login('10.0.0.1', 'bert', true)).toMatchObject({ limited: false });
  });

  it('refuses an account whose failures from all addresses reach the account limit, even from a fresh address', async () => {
    const { clock, login, checks } = limiterAt(0);
    // Two from each of three addresses: no address reaches 3, the account reaches 5 on the fifth.
    for (const address of ['10.0.0.1', '10.0.0.1', '10.0.0.2', '10.0.0.2', '10.0.0.3'])
      expect((await login(address, 'anna')).limited).toBe(false);
    clock.now += 10_000;
    const refused = await login('192.0.2.99', 'anna', true);
    expect(refused).toEqual({ limited: true, retryAfterSeconds: 50 });
    expect(checks()).toBe(5);
    // Other accounts are untouched; refused attempts do not count, so the window is not extended.
    expect((await login('192.0.2.99', 'bert', true)).limited).toBe(false);
    clock.now = WINDOW;
    expect(await login('192.0.2.99', 'anna', true)).toMatchObject({ limited: false });
  });

  it('answers with the later window when both scopes are spent', async () => {
    const { clock, login } = limiterAt(0, { maxFailures: 2, accountMaxFailures: 3 });
    await login('10.0.0.9', 'anna');
    clock.now = 20_000;
    await login('10.0.0.1', 'anna');
    await login('10.0.0.1', 'anna');
    // Account window ends at 60 s, the address window (first failure at 20 s) at 80 s.
    expect(await login('10.0.0.1', 'anna')).toEqual({ limited: true, retryAfterSeconds: 60 });
    expect(await login('10.0.0.2', 'anna')).toEqual({ limited: true, retryAfterSeconds: 40 });
  });

  it('clears the address+account count on success, but not the account count', async () => {
    const { login } = limiterAt(0);
    await login('10.0.0.1', 'anna');
    await login('10.0.0.1', 'anna');
    expect((await login('10.0.0.1', 'anna', true)).limited).toBe(false);
    // The owner's address starts again at 0 …
    await login('10.0.0.1', 'anna');
    await login('10.0.0.1', 'anna');
    expect((await login('10.0.0.1', 'anna', true)).limited).toBe(false);
    // … while the account has 4 failures: one more from anywhere spends it.
    await login('10.0.0.7', 'anna');
    expect((await login('10.0.0.1', 'anna', true)).limited).toBe(true);
  });

  it('has no account scope when no account limit is given', async () => {
    const { login } = limiterAt(0, { accountMaxFailures: undefined });
    for (let i = 0; i < 20; i += 1) await login(`10.0.1.${i}`, 'anna');
    expect((await login('10.0.2.1', 'anna', true)).limited).toBe(false);
  });

  it('lets only as many parallel attempts reach the password check as the limit has room for', async () => {
    const limiter = new LoginLimiter({ maxFailures: 3, accountMaxFailures: 5, windowMs: WINDOW });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let checks = 0;
    const guess = (address: string) =>
      limiter.attempt(address, 'anna', async () => {
        checks += 1;
        await gate;
        return null;
      });
    const sameAddress = Array.from({ length: 10 }, () => guess('10.0.0.1'));
    const manyAddresses = Array.from({ length: 10 }, (_, i) => guess(`10.0.1.${i}`));
    // Let the counts be read before the checks finish.
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const results = await Promise.all([...sameAddress, ...manyAddresses]);
    expect(checks).toBe(5);
    expect(results.filter((r) => r.limited)).toHaveLength(15);
    expect(results.filter((r) => r.limited).every((r) => r.retryAfterSeconds >= 1)).toBe(true);
    expect((await guess('10.0.2.1')).limited).toBe(true);
  });

  it('counts nothing when the check throws, and lets the next attempt through', async () => {
    const { limiter, login } = limiterAt(0, { maxFailures: 1, accountMaxFailures: 1 });
    await expect(
      limiter.attempt('10.0.0.1', 'anna', async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    expect((await login('10.0.0.1', 'anna', true)).limited).toBe(false);
  });
});
