import { describe, expect, it } from '@jest/globals';
import { neutraliseFormula } from '@dogshop/service-kit';
import { nameSortKey } from '../../../src/modules/handlers/name-sort.js';

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
