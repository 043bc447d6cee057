import preset from '../jest.preset.js';

export default { ...preset, rootDir: '.', testTimeout: 60_000 };
