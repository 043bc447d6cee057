// Which failures answer 503 (the database cannot be reached right now) rather than 500.
import { describe, expect, it } from '@jest/globals';
import { mongo } from 'mongoose';
import { isDatabaseUnavailable } from '../src/db/unavailable.js';

/** The error Node raises on a write to a socket whose peer has closed it, as the driver passes it on. */
const socketEnded = () =>
  Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });

describe('isDatabaseUnavailable', () => {
  it('is true for the driver’s network errors and for raw socket errors it passes on', () => {
    expect(isDatabaseUnavailable(new mongo.MongoNetworkError('connection closed'))).toBe(true);
    expect(isDatabaseUnavailable(socketEnded())).toBe(true);
    expect(isDatabaseUnavailable(new Error('query failed', { cause: socketEnded() }))).toBe(true);
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isDatabaseUnavailable(reset)).toBe(true);
  });

  it('is false for a request’s own failure and for a bug', () => {
    const duplicate = new mongo.MongoServerError({ message: 'E11000 duplicate key', code: 11000 });
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is not a function'))).toBe(false);
    expect(isDatabaseUnavailable('EPIPE')).toBe(false);
  });
});
