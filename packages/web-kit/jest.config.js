import preset from '../../jest.preset.js';

// 30 s as in the services: `pnpm test` runs packages side by side on a shared machine.
export default {
  ...preset,
  displayName: 'web-kit',
  rootDir: '.',
  globals: { testTimeout: 30_000 },
};
