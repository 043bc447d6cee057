// P-list, P-price, P-search: the shop ÷ Platformatic DB (the peer, a REST layer generated from the
// same tables) on equal work, measured in interleaved rounds like the other comparisons. Before
// the load, every request variant is sent to both and their answers must agree (the same exact
// total, the same 20 ids in the same order); the SQL each side sends for the first variant is
// captured from PostgreSQL's log and reported with its EXPLAIN ANALYZE time.
// The peer's query strings are built in ../peer/queries.ts.
import type { Context } from '../context.js';
import { Random } from '../datasets/random.js';
import { cpuRow, withCpu } from '../infra/cpu.js';
import { failedRuns, runLoad, type HttpRequestSpec, type LoadResult } from '../infra/load.js';
import { captureStatements, type CapturedStatement } from '../infra/query-capture.js';
import type { RunningService } from '../infra/services.js';
import {
  ensurePeerInstalled,
  PLATFORMATIC_DB_VERSION,
  startPeer,
} from '../peer/platformatic-db.js';
import {
  PEER_BASE,
  PEER_ORDER,
  peerListQuery,
  peerPriceQuery,
  peerSearchQuery,
  wantsPeer,
  type PeerId,
} from '../peer/queries.js';
import { meets, type Comparison } from '../results.js';
import { figure, interleave, ratioFigure } from '../stats.js';
import { searchBench } from './shop-benchmarks.js';
import { DB_CONNECTIONS, loadSequence } from './shop-routes.js';
import { explainRequest, shopHeaders } from './shop-sql.js';

export interface PeerVariant {
  shop: string;
  peer: string;
}

export interface PeerFigureSpec {
  id: PeerId;
  title: string;
  shopLabel: string;
  peerLabel: string;
  variants: PeerVariant[];
  /** What differs between the two sides' work, if anything. */
  differences: string[];
}

/** Price ranges drawn like B2b's. */
function priceRanges(count: number, seed: number): Array<{ min: number; max: number }> {
  const random = new Random(seed);
  return Array.from({ length: count }, () => {
    const min = random.int(10, 50);
    return { min, max: min + random.int(100, 300) };
  });
}

const COMMON_DIFFERENCES = [
  "The shop's items also carry `category_name` (a join with categories); the peer's list has no joins, so it returns `categoryId` only.",
  'The shop checks its API key (`x-api-key`, looked up at most every 5 s); the peer runs without authentication.',
  'The peer skips its COUNT when the first page is not full (fewer than 20 rows: the total is the rows it returned, still exact); the shop always counts (see the answer check for how many pages were full).',
];

export function peerFigures(variantCount: number): PeerFigureSpec[] {
  const prices = priceRanges(Math.max(1, Math.min(8, variantCount)), 203);
  // P-search sends exactly B2b's request variants (the same two terms and price ranges).
  const search = searchBench(Math.max(1, Math.min(8, variantCount))).variants.map((v) => {
    const params = new URL(v.path, 'http://x').searchParams;
    const terms = params.get('search')!.split(' ') as [string, string];
    const min = Number(params.get('min_price'));
    const max = Number(params.get('max_price'));
    return { shop: v.path, peer: peerSearchQuery(terms, min, max) };
  });
  return [
    {
      id: 'P-list',
      title: '20 newest active products with the exact total: shop ÷ Platformatic DB',
      shopLabel: 'GET /products?limit=20',
      peerLabel: `GET /products?${PEER_BASE}&${PEER_ORDER}`,
      variants: [{ shop: '/products?limit=20', peer: peerListQuery() }],
      differences: COMMON_DIFFERENCES,
    },
    {
      id: 'P-price',
      title: 'The same with a price range: shop ÷ Platformatic DB',
      shopLabel: 'GET /products?limit=20&min_price&max_price',
      peerLabel: `GET /products?${PEER_BASE}&where.price.gte&where.price.lte&${PEER_ORDER}`,
      variants: prices.map(({ min, max }) => ({
        shop: `/products?limit=20&min_price=${min}&max_price=${max}`,
        peer: peerPriceQuery(min, max),
      })),
      differences: COMMON_DIFFERENCES,
    },
    {
      id: 'P-search',
      title: 'Two-term name/description search with a price range: shop ÷ Platformatic DB',
      shopLabel: 'GET /products?limit=20&search=<2 terms>&min_price&max_price',
      peerLabel: `GET /products?${PEER_BASE}&where.price.gte&where.price.lte&where.or=(name.ilike=%t1%|description.ilike=%t1%)&where.description.ilike=%t2%&${PEER_ORDER}`,
      variants: search,
      differences: [
        "The peer's query language has one OR group per request (`where.or`, each alternative a single field condition) and one condition per field and operator, so “every term occurs in the name or the description” cannot be written for two terms. The first term is sent as `(name ILIKE %t1% OR description ILIKE %t1%)`, the second as `description ILIKE %t2%`. Every generated product's description begins with its name's words, so on this data set (name ∋ t or description ∋ t) ⇔ description ∋ t: the answers are the same (checked for every variant before the load), but the peer's SQL has three ILIKE conditions over two columns. The shop matches each term once, with `LIKE` on its `search_text` column (name and description lower-cased, computed by PostgreSQL, one trigram index); for the peer's runs the database also has trigram indexes on `name` and on `description` (the ones the shop's schema had before `search_text`), so each side's SQL has its indexes.",
        ...COMMON_DIFFERENCES,
      ],
    },
  ];
}

/** Rows per page on both sides (`limit=20`). */
const PAGE = 20;

interface Answer {
  ids: number[];
  total: number;
}

async function shopAnswer(shop: RunningService, path: string): Promise<Answer> {
  const res = await fetch(shop.url + path, { headers: shopHeaders() });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`shop GET ${path} answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as { data: Array<{ id: number }>; pagination: { total: number } };
  return { ids: body.data.map((p) => p.id), total: body.pagination.total };
}

async function peerAnswer(peer: RunningService, path: string): Promise<Answer> {
  const res = await fetch(peer.url + path);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`peer GET ${path} answered ${res.status}: ${text}`);
  const total = Number(res.headers.get('x-total-count'));
  if (!Number.isInteger(total)) throw new Error(`peer GET ${path}: no X-Total-Count header`);
  return { ids: (JSON.parse(text) as Array<{ id: number }>).map((p) => p.id), total };
}

/** Both sides must give the same answer to every variant, or the figure compares nothing. */
async function checkEqualAnswers(
  shop: RunningService,
  peer: RunningService,
  spec: PeerFigureSpec,
): Promise<string> {
  const totals: number[] = [];
  for (const v of spec.variants) {
    const [a, b] = await Promise.all([shopAnswer(shop, v.shop), peerAnswer(peer, v.peer)]);
    if (a.total !== b.total || a.ids.join() !== b.ids.join()) {
      throw new Error(
        `${spec.id}: the answers differ for ${v.shop} (total ${a.total}, ids ${a.ids.join()}) and ${v.peer} (total ${b.total}, ids ${b.ids.join()})`,
      );
    }
    totals.push(a.total);
  }
  const short = totals.filter((t) => t < PAGE).length;
  return `Equal answers checked before the load: for each of the ${spec.variants.length} variant(s) both return the same ${spec.variants.length === 1 ? 'page' : 'pages'} (same ids, same order) and the same exact total (${totals.join(', ')}); ${short === 0 ? 'every page is full, so both sides count' : `${short} of ${totals.length} pages are not full, and for those the peer does not count`}.`;
}

const sqlText = (statements: CapturedStatement[]) =>
  statements
    .map((s) => s.sql.replace(/\s+/g, ' ').trim())
    .map((s) => `\`${s.length > 400 ? `${s.slice(0, 397)}…` : s}\``)
    .join('; ');

async function sqlNote(
  ctx: Context,
  databaseUrl: string,
  database: string,
  side: string,
  issue: () => Promise<unknown>,
): Promise<string> {
  const statements = await captureStatements(ctx.pg, database, async () => void (await issue()));
  const explain = await explainRequest(databaseUrl, statements);
  return `${side} SQL for the first variant (${statements.length} statements, from the PostgreSQL log; EXPLAIN ANALYZE of its reads ${explain.executionMs.toFixed(2)} ms execution, ${explain.planningMs.toFixed(2)} ms planning): ${sqlText(statements)}`;
}

async function measureFigure(
  ctx: Context,
  shop: RunningService,
  peer: RunningService,
  db: { url: string; name: string },
  spec: PeerFigureSpec,
): Promise<Comparison> {
  const connections = DB_CONNECTIONS[0]!;
  const seconds = ctx.options.durationSeconds;
  const equal = await checkEqualAnswers(shop, peer, spec);

  await ctx.pg.logStatements(true);
  let shopSql: string;
  let peerSql: string;
  try {
    shopSql = await sqlNote(ctx, db.url, db.name, 'Shop', () =>
      shopAnswer(shop, spec.variants[0]!.shop),
    );
    peerSql = await sqlNote(ctx, db.url, db.name, 'Peer', () =>
      peerAnswer(peer, spec.variants[0]!.peer),
    );
  } finally {
    await ctx.pg.logStatements(false);
  }

  // The same random sequence of variants on both sides.
  const indexes = loadSequence(
    spec.variants.map((_, i) => ({ path: String(i) })),
    7,
  ).map((r) => Number(r.path));
  const shopRequests: HttpRequestSpec[] = indexes.map((i) => ({
    path: spec.variants[i]!.shop,
    headers: shopHeaders(),
  }));
  const peerRequests: HttpRequestSpec[] = indexes.map((i) => ({ path: spec.variants[i]!.peer }));
  const postmaster = ctx.pg.postmasterPid();
  const load = (server: RunningService, requests: HttpRequestSpec[]) => () =>
    withCpu({ service: server.process.pid, postmaster }, () =>
      runLoad({ url: server.url, requests, connections, duration: seconds }),
    );
  const runs = await interleave(
    ctx.options.rounds,
    { shop: load(shop, shopRequests), peer: load(peer, peerRequests) },
    ctx.log,
  );
  const failures = failedRuns(runs);
  const ratio = ratioFigure(
    runs.shop.map((r) => r.rps),
    runs.peer.map((r) => r.rps),
  );
  const target = { op: '>=' as const, value: 1 };
  const peerName = `Platformatic DB ${PLATFORMATIC_DB_VERSION}`;
  return {
    id: spec.id,
    title: spec.title,
    a: {
      label: `shop ${spec.shopLabel}, ${connections} connections`,
      unit: 'req/s',
      figure: figure(runs.shop.map((r) => r.rps)),
    },
    b: {
      label: `${peerName} ${spec.peerLabel}, ${connections} connections`,
      unit: 'req/s',
      figure: figure(runs.peer.map((r) => r.rps)),
    },
    ratio,
    target,
    pass: meets(ratio.median, target) && failures.length === 0,
    latency: [
      {
        label: `shop ${spec.shopLabel}`,
        connections,
        rps: figure(runs.shop.map((r) => r.rps)),
        p50: figure(runs.shop.map((r) => r.latency.p50)),
        p99: figure(runs.shop.map((r) => r.latency.p99)),
      },
      {
        label: `${peerName} (same work)`,
        connections,
        rps: figure(runs.peer.map((r) => r.rps)),
        p50: figure(runs.peer.map((r) => r.latency.p50)),
        p99: figure(runs.peer.map((r) => r.latency.p99)),
      },
    ],
    cpu: [
      cpuRow(`shop, ${connections} connections`, runs.shop, (r: LoadResult) => r.rps),
      cpuRow(`${peerName}, ${connections} connections`, runs.peer, (r: LoadResult) => r.rps),
    ],
    notes: [
      `Peer request(s): ${spec.variants.map((v) => `\`${v.peer}\``).join(', ')}; shop request(s): ${spec.variants.map((v) => `\`${v.shop}\``).join(', ')} (with its API key).`,
      equal,
      ...spec.differences.map((d) => `Difference: ${d}`),
      shopSql,
      peerSql,
      `Both in their own process on loopback with pools of the same size, on the same database (the cloned ${ctx.options.products}-product data set); the peer: \`plt-db start\` with \`db.openapi\` on, GraphQL, events, migrations and type generation off, logger at warn, NODE_ENV=production.`,
      ...failures.map((f) => `non-2xx or failed: ${f}`),
    ],
  };
}

/**
 * Installs (first use) and starts the peer on the shop's database, and measures the P figures the
 * options ask for. Each figure's failure is reported through `guard` and does not stop the others.
 */
export async function peerRuns(
  ctx: Context,
  shop: RunningService,
  db: { url: string; name: string },
  guard: (name: string, fn: () => Promise<unknown>) => Promise<void>,
): Promise<void> {
  const installed = await ensurePeerInstalled(ctx.log);
  ctx.report.versions['@platformatic/db (peer)'] = installed.version;
  ctx.log(`peer Platformatic DB ${installed.version} on ${db.name}`);
  // The peer's search is ILIKE on `name` and on `description`; the shop's schema indexes only its
  // own `search_text`. The peer gets the trigram indexes its SQL can use, for its runs only.
  for (const column of PEER_SEARCH_COLUMNS) {
    await ctx.pg.query(
      `CREATE INDEX IF NOT EXISTS peer_${column}_trgm ON products USING GIN (${column} gin_trgm_ops)`,
      [],
      db.name,
    );
  }
  await ctx.pg.query('ANALYZE products', [], db.name);
  const peer = await startPeer(db.url);
  try {
    for (const spec of peerFigures(ctx.options.variants)) {
      if (!wantsPeer(ctx.options, spec.id)) continue;
      ctx.log(`${spec.id} ${spec.shopLabel} ÷ the peer`);
      await guard(spec.id, async () =>
        ctx.report.comparisons.push(await measureFigure(ctx, shop, peer, db, spec)),
      );
    }
  } finally {
    await peer.stop();
    for (const column of PEER_SEARCH_COLUMNS)
      await ctx.pg.query(`DROP INDEX IF EXISTS peer_${column}_trgm`, [], db.name);
  }
}

const PEER_SEARCH_COLUMNS = ['name', 'description'] as const;
