/* global process */
// The catalogue floor (F-list, F-search, F-detail, F-reviews; bench/README.md, "F: the catalogue
// floor"): the shop's catalogue reads with its own SQL, statement names, `pg` read path
// (`sqlReads`), row mapping and response schemas, on bare Fastify: none of the plugin stack (no
// metrics, ETags, rate limit, request log, load shedding, security headers) and the API key
// compared in memory. The shop ÷ this is the price of what every shop request carries besides its
// read. What it runs of the shop comes through the one export the shop keeps for it.
import {
  getProduct,
  getProductOperation,
  listProductReviewsOperation,
  listProducts,
  listProductsOperation,
  listReviews,
  sqlReads,
} from '@dogshop/shop/catalogue-reads';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_MAX),
});
const db = sqlReads(pool);

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
