// The peer's query strings (P-list, P-price, P-search) and its configuration, without starting it:
// the report states these strings, so they are pinned here.
import { describe, expect, it } from '@jest/globals';
import { peerListQuery, peerPriceQuery, peerSearchQuery, wantsPeer } from '../src/peer/queries.js';
import { peerConfig, PLATFORMATIC_DB_VERSION } from '../src/peer/platformatic-db.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const query = (url: string) => Object.fromEntries(new URL(url, 'http://peer').searchParams);
const base = {
  limit: '20',
  fields: 'id,name,description,price,categoryId,stock,active,createdAt',
  'where.active.eq': 'true',
  'orderby.createdAt': 'desc',
  'orderby.id': 'desc',
  totalCount: 'true',
};

describe('the peer query strings', () => {
  it('P-list: 20 newest active products, the shop order, the exact total', () => {
    expect(query(peerListQuery())).toEqual(base);
    // The order of the orderby keys is the ORDER BY's.
    expect(peerListQuery()).toMatch(/orderby\.createdAt=desc&orderby\.id=desc/);
  });

  it('P-price: the same with a price range', () => {
    expect(query(peerPriceQuery(12, 150))).toEqual({
      ...base,
      'where.price.gte': '12',
      'where.price.lte': '150',
    });
  });

  it('P-search: the first term in the name or the description, the second in the description', () => {
    expect(query(peerSearchQuery(['leather', 'collar'], 12, 150))).toEqual({
      ...base,
      'where.price.gte': '12',
      'where.price.lte': '150',
      'where.or': '(name.ilike=%leather%|description.ilike=%leather%)',
      'where.description.ilike': '%collar%',
    });
  });

  it('--only P, --only P-list select the figures', () => {
    expect(wantsPeer({ only: null }, 'P-list')).toBe(true);
    expect(wantsPeer({ only: new Set(['P']) }, 'P-search')).toBe(true);
    expect(wantsPeer({ only: new Set(['P-LIST']) }, 'P-list')).toBe(true);
    expect(wantsPeer({ only: new Set(['P-LIST']) }, 'P-price')).toBe(false);
    expect(wantsPeer({ only: new Set(['P-LIST']) })).toBe(true);
    expect(wantsPeer({ only: new Set(['B2', 'SCALING']) })).toBe(false);
  });
});

describe('the peer', () => {
  it('is pinned in its own package.json and lockfile', () => {
    const dir = path.resolve(import.meta.dirname, '..', 'peer', 'platformatic-db');
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    expect(pkg.dependencies).toEqual({ '@platformatic/db': PLATFORMATIC_DB_VERSION });
    expect(lock.packages['node_modules/@platformatic/db']?.version).toBe(PLATFORMATIC_DB_VERSION);
  });

  it('serves REST only, from the environment’s database, without migrations', () => {
    const config = peerConfig(4321) as {
      server: { port: number; logger: { level: string } };
      db: Record<string, unknown>;
      migrations?: unknown;
    };
    expect(config.server).toMatchObject({
      hostname: '127.0.0.1',
      port: 4321,
      logger: { level: 'warn' },
    });
    expect(config.db).toMatchObject({
      connectionString: '{PLT_BENCH_DATABASE_URL}',
      graphql: false,
      openapi: true,
      poolSize: 10,
    });
    expect(config.migrations).toBeUndefined();
  });
});
