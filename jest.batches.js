// Test files in batches, for the root's `pnpm test`. Jest gives every test file a module registry
// of its own: Fastify, Ajv, TypeBox, Prisma and the service are loaded, compiled and evaluated
// again for each file, about 1.8 CPU-s before its first test (twelve shop files in one process:
// 62 CPU-s one by one, 42 in one registry). So the root run imports the test files of each
// folder of a package's test/ that holds a batches/ folder (test/*.test.ts, test/pages/*.test.ts)
// a batch at a time, each batch one Jest file (<folder>/batches/<n>.test.ts). A package's own
// `pnpm test`, and so a run of one of its files, keeps Jest's file-by-file isolation, and the
// batch files are ignored there (jest.preset.js); in the root run, a path pattern selects batch
// files, not the files in them.
//
// What a batch shares: the module registry and the process. What it does not change: every file's
// tests and hooks. Each file's top-level `beforeAll` and `afterAll` become the batch's: the
// files' apps are all built before the first test and closed after the last. A file runs alone
// (in a registry of its own) when its top level calls `beforeEach`/`afterEach` (they would run
// before its batch mates' tests too) or `jest.setTimeout` (Jest reads the limit once per Jest
// file: it would be its batch mates' too), and when it measures its process (`alone`, each
// with its reason).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import TestSequencer from '@jest/test-sequencer';

const BATCHES = 'batches';

/**
 * The project config of the package in `dir` (its jest.config.js) with the plain test files of
 * each folder of its test/ that holds a batches/ folder (test/ itself, or test/pages …) shared out
 * to the batch files there. `alone`: files (relative to test/) that keep a registry of their own.
 */
export async function inBatches(dir, { alone = [] } = {}) {
  const rootDir = path.resolve(import.meta.dirname, dir);
  const { default: config } = await import(pathToFileURL(path.join(rootDir, 'jest.config.js')));
  const testDir = path.join(rootDir, 'test');
  const kept = alone.map((name) => path.resolve(testDir, name));
  for (const file of kept) statSync(file); // a stale name fails the run
  const folders = [testDir, ...subfolders(testDir)].filter((folder) =>
    subfolders(folder).includes(path.join(folder, BATCHES)),
  );
  const testBatches = {};
  const ignored = [];
  for (const folder of folders) {
    const files = testFiles(folder).filter((file) => !kept.includes(file) && !runsAlone(file));
    const batchFiles = testFiles(path.join(folder, BATCHES));
    if (batchFiles.length === 0) throw new Error(`${folder}/${BATCHES} holds no batch file`);
    const shared = share(files, batchFiles);
    Object.assign(testBatches, shared);
    // The files run in their batches; a batch left without files would fail as empty.
    ignored.push(...files, ...batchFiles.filter((file) => !shared[pathToFileURL(file).href]));
  }
  return {
    ...config,
    rootDir,
    // The package's own patterns ignore the batch files (jest.preset.js): here they run.
    testPathIgnorePatterns: ['/node_modules/', ...ignored.map((file) => `^${escape(file)}$`)],
    globals: { ...config.globals, testBatches },
  };
}

/** Top-level calls that would reach the batch mates' tests (see the head of this file). */
const runsAlone = (file) =>
  /^(beforeEach|afterEach|jest\.setTimeout)\(/m.test(readFileSync(file, 'utf8'));

const subfolders = (folder) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(folder, entry.name));

const testFiles = (folder) =>
  readdirSync(folder)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => path.join(folder, name));

/**
 * The files, biggest first, each to the batch with the fewest bytes so far: a file's size is
 * what Jest too takes for its duration when it has none on record.
 */
function share(files, batchFiles) {
  const batches = batchFiles.map((batchFile) => ({ batchFile, bytes: 0, files: [] }));
  const sized = files.map((file) => ({ file, bytes: statSync(file).size }));
  sized.sort((a, b) => b.bytes - a.bytes || a.file.localeCompare(b.file));
  for (const { file, bytes } of sized) {
    const smallest = batches.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    smallest.files.push(file);
    smallest.bytes += bytes;
  }
  return Object.fromEntries(
    batches
      .filter((b) => b.files.length > 0)
      .map((b) => [
        pathToFileURL(b.batchFile).href,
        b.files.sort().map((file) => pathToFileURL(file).href),
      ]),
  );
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Projects whose files start whole services as processes: their length is not in their size. */
const STARTING_PROCESSES = new Set(['infra', 'bench']);

/**
 * Jest's order (failed first, then the longest) where Jest knows the durations. In a clean clone,
 * with none on record, Jest takes a file's size: the small batch files would run last, and so
 * would the short files of infra and bench that run for a minute (the processes they start), one
 * core idling while another finishes. So there a batch counts the sizes of its files, and the
 * files that start processes go first.
 */
export default class BatchSequencer extends TestSequencer {
  sort(tests) {
    const bytes = (test) => {
      const files = test.context.config.globals.testBatches?.[pathToFileURL(test.path).href];
      return (files?.map((file) => new URL(file)) ?? [test.path]).reduce(
        (sum, file) => sum + statSync(file).size,
        0,
      );
    };
    const key = new Map(
      tests.map((test) => [
        test,
        {
          failed: this.hasFailed(test),
          time: this.time(test),
          starts: STARTING_PROCESSES.has(test.context.config.displayName?.name),
          bytes: bytes(test),
        },
      ]),
    );
    return tests.sort((a, b) => {
      const [x, y] = [key.get(a), key.get(b)];
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      if ((x.time == null) !== (y.time == null)) return x.time == null ? -1 : 1;
      if (x.time != null) return y.time - x.time;
      if (x.starts !== y.starts) return x.starts ? -1 : 1;
      return y.bytes - x.bytes;
    });
  }
}
