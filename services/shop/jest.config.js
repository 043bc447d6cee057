import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'shop',
  rootDir: '.',
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  globals: { testTimeout: 30_000 },
};
