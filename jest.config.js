// `pnpm test` at the root: every package's tests in one Jest run, on one pool of workers, so that
// a package's slow last file no longer holds the next package back and the two cores stay busy
// (`turbo run test:setup` has installed the tools and built what the tests serve or start).
// Each package keeps its own config (and `pnpm test` of its own, as its CI pipeline runs it).
export default {
  // A worker is replaced once a finished test file leaves it more than this much heap (every
  // ten files or so). Each file leaves things behind in its worker: jest-circus 30 an
  // AsyncLocalStorage, whose hook every later promise runs (7.7 % of the CPU of the shop's files
  // in one process), and module caches, which made the heap and its collections grow.
  workerIdleMemoryLimit: '512MB',
  projects: [
    '<rootDir>/packages/mongo-wire-server/jest.config.js',
    '<rootDir>/packages/service-kit/jest.config.js',
    '<rootDir>/packages/web-kit/jest.config.js',
    '<rootDir>/services/shop/jest.config.js',
    '<rootDir>/services/handler-directory/jest.config.js',
    '<rootDir>/infra/jest.config.js',
    '<rootDir>/bench/jest.config.js',
  ],
};
