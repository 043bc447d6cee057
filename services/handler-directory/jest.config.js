import preset from '../../jest.preset.js';

export default {
  ...preset,
  rootDir: '.',
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testTimeout: 30_000,
};
