// Which F figures `--only` selects, and what each sends: its B2/B3 twin's request variants.
import { describe, expect, it } from '@jest/globals';
import { floorFigures, wantsFloor } from '../src/benchmarks/floor-benchmarks.js';

const only = (...ids: string[]) => ({ only: new Set(ids) });

describe('F figures', () => {
  it('runs all four with --only F or no --only, one with its id, none for other figures', () => {
    expect(wantsFloor({ only: null }, 'F-detail')).toBe(true);
    expect(wantsFloor(only('F'), 'F-reviews')).toBe(true);
    expect(wantsFloor(only('F-DETAIL'), 'F-detail')).toBe(true);
    expect(wantsFloor(only('F-DETAIL'), 'F-list')).toBe(false);
    expect(wantsFloor(only('F-DETAIL'))).toBe(true);
    expect(wantsFloor(only('B2', 'P'))).toBe(false);
  });

  it('sends the list, B2b’s searches and B3’s product ids', () => {
    const facts = { active: Array.from({ length: 60 }, (_, i) => ({ id: i + 1, price: '9.99' })) };
    const figures = floorFigures(facts, 50);
    expect(figures.map((f) => f.id)).toEqual(['F-list', 'F-search', 'F-detail', 'F-reviews']);
    const [list, search, detail, reviews] = figures.map((f) => f.route.variants.map((v) => v.path));
    expect(list).toEqual(['/products?limit=20']);
    expect(search).toHaveLength(8);
    expect(search!.every((p) => /search=.+&min_price=\d+&max_price=\d+$/.test(p))).toBe(true);
    expect(detail).toHaveLength(50);
    expect(detail!.every((p) => /^\/products\/\d+$/.test(p))).toBe(true);
    expect(reviews!.every((p) => /^\/products\/\d+\/reviews$/.test(p))).toBe(true);
  });
});
