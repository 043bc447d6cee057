import preset from '../../jest.preset.js';

// 30 s as in the services: `pnpm test` runs packages side by side on a shared machine.
export default { ...preset, rootDir: '.', testTimeout: 30_000 };
