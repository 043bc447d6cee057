// `pnpm test` at the root: every package's tests in one Jest run, on one pool of workers, so that
// a package's slow last file no longer holds the next package back (`turbo run test:setup` has
// installed the tools and built what the tests serve or start). Two workers on two cores: a third
// kept the cores busier while batches wait (1.96 cores against 1.82), but page tests then timed
// out now and then (their waits are 15 s) and the login-timing check drifted.
// Each package keeps its own config (and `pnpm test` of its own, as its CI pipeline runs it);
// here the plain test files of the packages that have many run in batches (jest.batches.js).
import { inBatches } from './jest.batches.js';

export default {
  // A worker is replaced once a finished test file leaves it more than this much heap (every
  // ten files or so). Each file leaves things behind in its worker: jest-circus 30 an
  // AsyncLocalStorage, whose hook every later promise runs (7.7 % of the CPU of the shop's files
  // in one process), and module caches, which made the heap and its collections grow.
  workerIdleMemoryLimit: '512MB',
  testSequencer: '<rootDir>/jest.batches.js',
  projects: [
    await inBatches('packages/mongo-wire-server'),
    // pressure.test measures the event loop's delay.
    await inBatches('packages/service-kit', { alone: ['pressure.test.ts'] }),
    '<rootDir>/packages/web-kit/jest.config.js',
    await inBatches('services/shop'),
    await inBatches('services/handler-directory'),
    '<rootDir>/infra/jest.config.js',
    '<rootDir>/bench/jest.config.js',
  ],
};
