// Run in a service's folder by its test script: the page tests serve the built pages (dist/web,
// what `pnpm build` makes with vite). This builds them when they are missing or older than their
// sources (web/, vite.config.ts, and web-kit's src/), so that `pnpm test` in the service sees an
// edit to a page. When the build is current nothing is rebuilt: infra's tests, which may run at
// the same time, serve the same dist/web, and a rebuild (vite empties the folder first) would
// take their pages away mid-test.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.cwd();
const webKit = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const built = path.join(root, 'dist', 'web', 'index.html');

/** The newest modification time of a file or of any file below a folder. */
function newest(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    0,
    ...readdirSync(entry)
      .filter((name) => name !== 'node_modules')
      .map((name) => newest(path.join(entry, name))),
  );
}

let builtAt = 0;
try {
  builtAt = statSync(built).mtimeMs;
} catch {
  // not built yet
}
const sources = Math.max(
  newest(path.join(root, 'web')),
  newest(path.join(root, 'vite.config.ts')),
  // web-kit, which the pages are built from (its sources: vite.config.ts's resolve.conditions).
  newest(path.join(webKit, 'src')),
);
if (builtAt < sources) {
  console.log(`building the pages (dist/web ${builtAt ? 'is older than web/' : 'is missing'})`);
  // The service's whole page build (its API types first), as `pnpm build:web` runs it.
  const result = spawnSync('pnpm', ['-s', 'build:web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}
