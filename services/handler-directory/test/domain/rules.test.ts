import { describe, expect, it } from '@jest/globals';
import { neutraliseFormula } from '../../src/domain/csv-cell.js';
import { LoginThrottle } from '../../src/domain/login-throttle.js';
import { nameSortKey } from '../../src/domain/name-sort.js';

describe('nameSortKey', () => {
  it('orders names like a German dictionary: case-insensitive, umlauts with their base letter', () => {
    const names = [
      'Zeller',
      'Öhler',
      'ober',
      'Ärger',
      'Adler',
      'Straße',
      'Strasser',
      'Übel',
      'ueli',
      'Ulrich',
    ];
    const sorted = [...names].sort((a, b) => (nameSortKey(a) < nameSortKey(b) ? -1 : 1));
    expect(sorted).toEqual([
      'Adler',
      'Ärger',
      'ober',
      'Öhler',
      'Straße',
      'Strasser',
      'Übel',
      'ueli',
      'Ulrich',
      'Zeller',
    ]);
  });
});

describe('neutraliseFormula', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@x', "'@x"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['Jürgen', 'Jürgen'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
  });
});

describe('LoginThrottle', () => {
  const key = LoginThrottle.key('10.0.0.1', ' Anna ');

  it('refuses after the maximum failures until the window ends', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(3, 60_000, () => now);
    for (let i = 0; i < 3; i += 1) {
      expect(throttle.retryAfterSeconds(key)).toBe(0);
      throttle.recordFailure(key);
    }
    expect(throttle.retryAfterSeconds(key)).toBe(60);
    now += 59_500;
    expect(throttle.retryAfterSeconds(key)).toBe(1);
    now += 500;
    expect(throttle.retryAfterSeconds(key)).toBe(0);
  });

  it('counts per client and lower-cased username, and forgets a key on reset', () => {
    const throttle = new LoginThrottle(1, 60_000);
    throttle.recordFailure(key);
    expect(throttle.retryAfterSeconds(LoginThrottle.key('10.0.0.1', 'anna'))).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds(LoginThrottle.key('10.0.0.2', 'anna'))).toBe(0);
    expect(throttle.retryAfterSeconds(LoginThrottle.key('10.0.0.1', 'bert'))).toBe(0);
    throttle.reset(key);
    expect(throttle.retryAfterSeconds(key)).toBe(0);
  });

  it('keeps at most the configured number of keys', () => {
    const throttle = new LoginThrottle(1, 60_000, Date.now, 10);
    for (let i = 0; i < 25; i += 1) throttle.recordFailure(`k${i}`);
    expect(throttle.retryAfterSeconds('k24')).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds('k0')).toBe(0);
  });
});
