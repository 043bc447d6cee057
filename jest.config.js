// `pnpm test` at the root: every package's tests in one Jest run, on one pool of workers, so that
// a package's slow last file no longer holds the next package back and the two cores stay busy
// (`turbo run test:setup` has installed the tools and built what the tests serve or start).
// Each package keeps its own config (and `pnpm test` of its own, as its CI pipeline runs it).
export default {
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
