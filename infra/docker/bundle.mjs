#!/usr/bin/env node
// Produces the production bundle of one service: a self-contained folder with the compiled
// service, its production dependencies only (workspace packages copied in, not linked) and, for
// the shop, its Prisma schema and migrations. The Dockerfiles copy this folder into the runtime
// image as it is, and infra/test/bundle.test.ts starts the same folder outside Docker.
//
//   node infra/docker/bundle.mjs <shop|handler-directory> [--out <dir>] [--skip-build]
//
// Steps:
//   1. build: `turbo run build` for the service (generate → build, dependencies first);
//      --skip-build when the caller has just run that task (the infra tests run after turbo's
//      ^build).
//   2. `pnpm deploy --legacy --prod`: pnpm 10 deploys from a shared lockfile only with
//      inject-workspace-packages, which would change how the whole workspace links its packages
//      in development; the legacy mode copies the workspace packages into the bundle instead.
//   3. keep only what runs: package.json, dist/, prisma/ (the legacy deploy copies the whole
//      package folder, .data/ and src/ included).
//   4. drop packages that only an optional peer dependency brought in: @prisma/client names the
//      `prisma` CLI and `typescript` as optional peers, and because the shop has them as
//      devDependencies the lockfile links them (with React, Effect, PGlite … about 180 MB) into
//      production. Nothing at run time needs them.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What each service's bundle keeps from its package folder (besides node_modules). */
const SERVICES = {
  shop: { package: '@dogshop/shop', keep: ['package.json', 'dist', 'prisma'] },
  'handler-directory': { package: '@dogshop/handler-directory', keep: ['package.json', 'dist'] },
};

export function bundle({ service, out, skipBuild = false, log = console.log }) {
  const spec = SERVICES[service];
  if (!spec) throw new Error(`unknown service "${service}" (one of ${Object.keys(SERVICES)})`);
  const outDir = path.resolve(out ?? path.join(REPO_ROOT, '.bundle', service));
  const started = Date.now();

  if (!skipBuild) {
    run('pnpm', ['exec', 'turbo', 'run', 'build', `--filter=${spec.package}`], log);
  }
  const dist = path.join(REPO_ROOT, 'services', service, 'dist', 'server.js');
  if (!existsSync(dist)) throw new Error(`${dist} is missing: build the service first`);

  rmSync(outDir, { recursive: true, force: true });
  run(
    'pnpm',
    ['--filter', spec.package, 'deploy', '--legacy', '--prod', '--prefer-offline', outDir],
    log,
  );

  for (const entry of readdirSync(outDir)) {
    if (entry !== 'node_modules' && !spec.keep.includes(entry)) {
      rmSync(path.join(outDir, entry), { recursive: true, force: true });
    }
  }
  for (const entry of spec.keep) {
    if (!existsSync(path.join(outDir, entry))) throw new Error(`bundle lacks ${entry}`);
  }

  const removed = removeOptionalPeerOnlyPackages(outDir);
  log(
    `bundle of ${spec.package} in ${outDir} (${Date.now() - started} ms; ` +
      `${removed.length} packages only reachable through optional peers removed)`,
  );
  return { outDir, removed };
}

/**
 * Walks the dependency graph from the bundle's package.json through dependencies,
 * optionalDependencies and required peers (never optional peers), and deletes every package of
 * node_modules/.pnpm the walk does not reach, then the links left pointing at them.
 */
function removeOptionalPeerOnlyPackages(bundleDir) {
  const store = path.join(bundleDir, 'node_modules', '.pnpm');
  const storeReal = realpathSync(store);
  const reachable = new Set();
  const queue = [];
  const visit = (linkPath) => {
    if (!existsSync(linkPath)) return; // an optional dependency for another platform
    const real = realpathSync(linkPath);
    if (reachable.has(real)) return;
    reachable.add(real);
    queue.push(real);
  };
  const edges = (manifest) => {
    const optionalPeers = manifest.peerDependenciesMeta ?? {};
    return [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((p) => !optionalPeers[p]?.optional),
    ];
  };

  const root = readJson(path.join(bundleDir, 'package.json'));
  for (const name of [
    ...Object.keys(root.dependencies ?? {}),
    ...Object.keys(root.optionalDependencies ?? {}),
  ]) {
    visit(path.join(bundleDir, 'node_modules', name));
  }
  while (queue.length > 0) {
    const dir = queue.pop();
    // A package of the virtual store sits in .pnpm/<key>/node_modules/<name>; its dependencies
    // are links beside it in that node_modules folder.
    const siblings = nodeModulesFolderOf(dir);
    for (const name of edges(readJson(path.join(dir, 'package.json')))) {
      visit(path.join(siblings, name));
    }
  }

  const keepKeys = new Set(
    [...reachable]
      .filter((dir) => dir.startsWith(storeReal + path.sep))
      .map((dir) => path.relative(storeReal, dir).split(path.sep)[0]),
  );
  const removed = [];
  for (const key of readdirSync(store)) {
    if (key === 'node_modules' || key === 'lock.yaml' || keepKeys.has(key)) continue;
    if (!statSync(path.join(store, key)).isDirectory()) continue;
    rmSync(path.join(store, key), { recursive: true, force: true });
    removed.push(key);
  }
  removeDanglingLinks(path.join(bundleDir, 'node_modules'));
  return removed;
}

function nodeModulesFolderOf(packageDir) {
  const parts = packageDir.split(path.sep);
  const index = parts.lastIndexOf('node_modules');
  return parts.slice(0, index + 1).join(path.sep);
}

/** Deletes symbolic links whose target no longer exists, in node_modules folders below `dir`. */
function removeDanglingLinks(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      if (!existsSync(full)) rmSync(full);
    } else if (entry.isDirectory() && !lstatSync(full).isSymbolicLink()) {
      // Only descend through the layout pnpm creates, not into every package's files.
      if (
        entry.name === 'node_modules' ||
        entry.name === '.pnpm' ||
        entry.name.startsWith('@') ||
        path.basename(dir) === '.pnpm'
      ) {
        removeDanglingLinks(full);
      }
    }
  }
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function run(command, args, log) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const service = args.find((a, i) => !a.startsWith('--') && (outIndex < 0 || i !== outIndex + 1));
  try {
    bundle({
      service,
      out: outIndex >= 0 ? args[outIndex + 1] : undefined,
      skipBuild: args.includes('--skip-build'),
    });
  } catch (error) {
    console.error(`bundle: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
