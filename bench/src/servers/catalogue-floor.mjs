/* global process */
// A floor for B2/B3, run in the shop's place (bench/README.md, "What B2 and B3 would take"):
// the shop's catalogue reads with its own SQL, row mapping and response schemas, but on bare
// Fastify (no plugin stack: no metrics, ETags, rate limit, request log) and on `pg` directly
// instead of Prisma. What the report shows for it is what a service on this stack could reach
// without the ORM and without the features every request pays for; the shop's figures ÷ these
// are their cost. What it runs of the shop comes through the one export the shop keeps for it.
import {
  getProduct,
  getProductOperation,
  listProductReviewsOperation,
  listProducts,
  listProductsOperation,
  listReviews,
  preparedStatementName,
  Prisma,
} from '@dogshop/shop/catalogue-reads';
import Fastify from 'fastify';
import pg from 'pg';

// int8 (the list's total) as the shop's Prisma client reads it.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => BigInt(text));
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_MAX),
});
// Decimal parameters (price filters) as their text; everything else as pg sends it.
const parameter = (value) => (value instanceof Prisma.Decimal ? value.toString() : value);

/** What the shop's repositories call on Prisma, done with one pg query, named as the shop names it. */
const db = {
  async $queryRaw(strings, ...values) {
    const query = Prisma.sql(strings, ...values);
    const result = await pool.query({
      name: preparedStatementName(query) || undefined,
      text: query.text,
      values: query.values.map(parameter),
    });
    return result.rows;
  },
};

const app = Fastify({ logger: false });
// The same key the shop checks, compared in memory (the shop remembers a checked key for 5 s).
app.addHook('onRequest', async (request, reply) => {
  if (request.url !== '/ready' && request.headers['x-api-key'] !== process.env.SHOP_API_KEY) {
    return reply.code(401).send({ success: false, error: 'Invalid API key', status_code: 401 });
  }
});
app.get('/ready', async () => ({ status: 'ready' }));
app.get('/products', { schema: listProductsOperation }, async (request) => {
  const { products, pagination } = await listProducts(db, request.query);
  return { success: true, data: products, pagination };
});
app.get('/products/:id', { schema: getProductOperation }, async (request) => ({
  success: true,
  data: await getProduct(db, request.params.id),
}));
app.get('/products/:id/reviews', { schema: listProductReviewsOperation }, async (request) => ({
  success: true,
  data: await listReviews(db, request.params.id, request.query),
}));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
