// The package's entry for bench/src/servers/catalogue-floor.mjs, the benchmark's floor for the
// catalogue reads: it runs these service functions, on the shop's own `sqlReads` over a `pg` pool
// of its own, on bare Fastify instead of the app and its plugin stack (bench/README.md, "F: the
// catalogue floor"). Not an API for anything else; renaming or removing one of these fails this
// package's type-check instead of the next benchmark run.
export {
  getProductOperation,
  listProductReviewsOperation,
  listProductsOperation,
} from '@dogshop/contracts/shop';
export { sqlReads } from './db/sql-reads.js';
export { getProduct, listProducts } from './modules/products/service.js';
export { listReviews } from './modules/reviews/service.js';
