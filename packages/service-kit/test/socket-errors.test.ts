import { describe, expect, it } from '@jest/globals';
import { isSocketError } from '../src/socket-errors.js';

const withCode = (code: unknown) => Object.assign(new Error('socket'), { code });

describe('isSocketError', () => {
  it("is true for Node's errors of a refused, reset, closed, timed-out or unresolved connection", () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']) {
      expect({ code, socket: isSocketError(withCode(code)) }).toEqual({ code, socket: true });
    }
  });

  it('is false for other codes, codeless errors and non-errors', () => {
    expect(isSocketError(withCode('ENOENT'))).toBe(false);
    expect(isSocketError(withCode(11000))).toBe(false);
    expect(isSocketError(new Error('EPIPE'))).toBe(false);
    expect(isSocketError({ code: 'EPIPE' })).toBe(false);
    expect(isSocketError(null)).toBe(false);
  });
});
