import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isoTime } from '../../../src/modules/handlers/iso-time.js';

/** The range ECMAScript dates cover: ±100,000,000 days around 1970. */
const MAX_MS = 8.64e15;
/** The years isoTime writes itself (the others are toISOString's). */
const OWN = {
  min: Date.parse('1000-01-01T00:00:00.000Z'),
  max: Date.parse('9999-12-31T23:59:59.999Z'),
};

describe('isoTime', () => {
  it('writes what toISOString writes, for any date', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(OWN), fc.integer({ min: -MAX_MS, max: MAX_MS })), (ms) => {
        const date = new Date(ms);
        expect(isoTime(date)).toBe(date.toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes what toISOString writes around the edges of days, years and its own range', () => {
    const edges = [
      '1000-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T12:00:00.005Z',
      '2024-02-29T23:59:59.099Z',
      '2100-03-01T00:00:00.010Z',
      '9999-12-31T23:59:59.999Z',
    ].map((text) => Date.parse(text));
    for (const ms of edges.flatMap((edge) => [edge - 1, edge, edge + 1])) {
      const date = new Date(ms);
      expect(isoTime(date)).toBe(date.toISOString());
    }
  });

  it('throws for an invalid date, as toISOString does', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
