// Shared Jest settings: TypeScript through SWC, native ES modules (run Jest with
// --experimental-vm-modules), `.js` suffixes in relative imports mapped back to the `.ts` sources.
import { fileURLToPath } from 'node:url';

export default {
  testEnvironment: 'node',
  // Workspace packages are read from their sources (the "@dogshop/source" export condition), so a
  // test sees an edit in contracts or service-kit without a rebuild; Node at run time reads dist.
  // The services' global setups and the CLIs their tests run through tsx get the same condition
  // from Node's `--conditions=@dogshop/source`.
  testEnvironmentOptions: { customExportConditions: ['@dogshop/source', 'node', 'node-addons'] },
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  // A batch file runs only in the root's run, which gives it its files (jest.batches.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/(.*/)?batches/'],
  // A package's time limit per test is its config's `globals.testTimeout` (see jest.timeout.js).
  setupFilesAfterEnv: [fileURLToPath(new URL('./jest.timeout.js', import.meta.url))],
};
