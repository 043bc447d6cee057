// One batch of this package's test files, run in one module registry by the root's `pnpm test`,
// which gives it its files (jest.batches.js).
const batches = (globalThis as { testBatches?: Record<string, string[]> }).testBatches;
for (const file of batches?.[import.meta.url] ?? []) await import(file);
