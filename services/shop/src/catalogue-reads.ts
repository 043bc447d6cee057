// The package's entry for bench/src/servers/catalogue-floor.mjs, the benchmark's floor for the
// catalogue reads: it runs these service functions on bare Fastify and `pg` instead of the app
// and Prisma (bench/README.md, "the catalogue floor"). Its `db` only answers `$queryRaw`, so it
// needs Prisma's SQL tag and Decimal, and the statement names, besides the functions and their
// operations. Not an API for anything else; renaming or removing one of these fails this
// package's type-check instead of the next benchmark run.
export {
  getProductOperation,
  listProductReviewsOperation,
  listProductsOperation,
} from '@dogshop/contracts/shop';
export { preparedStatementName } from './db/prepared-statements.js';
export { Prisma } from './generated/prisma/client.js';
export { getProduct, listProducts } from './modules/products/service.js';
export { listReviews } from './modules/reviews/service.js';
