import preset from '../../jest.preset.js';

// 30 s as in the services: `pnpm test` runs packages side by side on a shared machine, where a
// test that takes 1 s alone can take more than Jest's default 5 s.
export default {
  ...preset,
  displayName: 'service-kit',
  rootDir: '.',
  globals: { testTimeout: 30_000 },
};
