import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'infra',
  rootDir: '.',
  globals: { testTimeout: 120_000 },
  // What was built, not the sources (see tsconfig.json): Jest's default conditions.
  testEnvironmentOptions: { customExportConditions: ['node', 'node-addons'] },
};
