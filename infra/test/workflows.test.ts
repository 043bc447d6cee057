// The GitHub pipelines (.github/workflows/): one per service with path filters, one for the shared
// packages. GitHub cannot run here, so these tests check what can be checked offline: triggers and
// path filters (a service change also runs the infra tests that start the service), least-privilege
// permissions, actions pinned by commit, every `run:` calling a script that exists, real database
// containers for the tests, the image built once, run against a real database until /ready answers,
// and exactly that image published on release tags only.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { parsePinnedImage, readCompose } from './support/deployment-files.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORKFLOW_DIR = path.join(REPO_ROOT, '.github/workflows');

// ---- what the workflows are about --------------------------------------------------------------

interface ServicePipeline {
  file: string;
  packageName: string;
  dir: string;
  dockerfile: string;
  tagPrefix: string;
  /** The database container of the test job. */
  database: { service: string; image: string; env: Record<string, string> };
  /** How the image job runs the built image. */
  container: {
    name: string;
    port: number;
    /** The variable holding the database URL, and the host:port it must name. */
    databaseVariable: string;
    databaseHost: string;
    /** Variables passed from the job's env with `-e NAME` besides the database URL. */
    passed: string[];
    /** The path of the one real request after /ready. */
    request: string;
  };
}

const SERVICES: ServicePipeline[] = [
  {
    file: 'shop.yml',
    packageName: '@dogshop/shop',
    dir: 'services/shop',
    dockerfile: 'infra/docker/shop.Dockerfile',
    tagPrefix: 'shop-v',
    database: {
      service: 'postgres',
      image: 'postgres:17',
      env: { TEST_PG_SERVER_URL: 'postgresql://postgres:postgres@localhost:5432' },
    },
    container: {
      name: 'shop',
      port: 3000,
      databaseVariable: 'DATABASE_URL',
      databaseHost: 'postgres:5432',
      passed: ['JWT_SECRET', 'SHOP_API_KEY'],
      request: '/products',
    },
  },
  {
    file: 'handler-directory.yml',
    packageName: '@dogshop/handler-directory',
    dir: 'services/handler-directory',
    dockerfile: 'infra/docker/handler-directory.Dockerfile',
    tagPrefix: 'handler-directory-v',
    database: {
      service: 'mongo',
      image: 'mongo:8',
      env: { MONGODB_URI: 'mongodb://localhost:27017' },
    },
    container: {
      name: 'handler-directory',
      port: 3001,
      databaseVariable: 'MONGODB_URI',
      databaseHost: 'mongo:27017',
      passed: ['JWT_SECRET', 'ADMIN_USERNAME', 'ADMIN_PASSWORD'],
      request: '/api/users',
    },
  },
];

const SHARED_FILE = 'shared-packages.yml';
const ROOT_CONFIG = [
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'turbo.json',
  'tsconfig.base.json',
  'eslint.config.js',
  'jest.preset.js',
  '.prettierrc.json',
];
const TEST_NODE_VERSIONS = [22, 24];
/** The infra suite: bundle, gateway end to end, OpenAPI drift, soak, and these static checks. */
const INFRA_TESTS = 'pnpm exec turbo run test --filter=@dogshop/infra';
const INFRA_TEST_DIR = path.join(REPO_ROOT, 'infra', 'test');

// ---- reading ------------------------------------------------------------------------------------

interface Step {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  id?: string;
}
interface Job {
  name?: string;
  if?: string;
  needs?: string | string[];
  permissions?: Record<string, string> | string;
  outputs?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  services?: Record<string, { image: string; options?: string; env?: Record<string, string> }>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, { paths?: string[]; tags?: string[]; branches?: string[] } | null>;
  permissions?: Record<string, string> | string;
  concurrency?: { group: string; 'cancel-in-progress'?: unknown };
  jobs: Record<string, Job>;
}

const readText = (file: string) => readFileSync(path.join(WORKFLOW_DIR, file), 'utf8');
const readWorkflow = (file: string) => parse(readText(file)) as Workflow;
const workflowFiles = () => readdirSync(WORKFLOW_DIR).filter((f) => /\.ya?ml$/.test(f));
const readJson = (file: string) =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Record<string, unknown>;

interface WorkspacePackage {
  name: string;
  dir: string;
  scripts: Record<string, string>;
}

/** The workspace's packages (pnpm-workspace.yaml globs of the form `dir/*` or `dir`). */
function workspacePackages(): WorkspacePackage[] {
  const { packages } = parse(readFileSync(path.join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8')) as {
    packages: string[];
  };
  const dirs = packages.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(path.join(REPO_ROOT, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${glob.slice(0, -2)}/${entry.name}`)
      : [glob],
  );
  return dirs
    .filter((dir) => existsSync(path.join(REPO_ROOT, dir, 'package.json')))
    .map((dir) => {
      const pkg = readJson(`${dir}/package.json`) as {
        name: string;
        scripts?: Record<string, string>;
      };
      return { name: pkg.name, dir, scripts: pkg.scripts ?? {} };
    });
}

const ROOT_SCRIPTS = (readJson('package.json').scripts ?? {}) as Record<string, string>;
const TURBO_TASKS = Object.keys((readJson('turbo.json') as { tasks: object }).tasks);
const PACKAGES = workspacePackages();

/** `--filter=<x>` / `--filter <x>` → the workspace packages it selects (names or `./dir/*`). */
function resolveFilter(filter: string): WorkspacePackage[] {
  if (filter.startsWith('./')) {
    const prefix = filter.slice(2).replace(/\*$/, '');
    return PACKAGES.filter((p) =>
      filter.endsWith('*') ? p.dir.startsWith(prefix) : p.dir === prefix,
    );
  }
  return PACKAGES.filter((p) => p.name === filter);
}

/**
 * What is wrong with one command of a `run:` step (empty when it is fine). Allowed: `pnpm install`,
 * `pnpm <root script>`, `pnpm --filter <package> <script>`, and `pnpm exec turbo run <tasks>
 * [--filter=<package or ./dir/*>]` with tasks that turbo.json defines and the filtered packages
 * have as scripts.
 */
function runProblems(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const [tool, ...args] = words;
  if (tool !== 'pnpm') return [`"${command}": only pnpm commands are expected`];
  const filters: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--filter' || arg === '-F') filters.push(args[++i] ?? '');
    else if (arg.startsWith('--filter=')) filters.push(arg.slice('--filter='.length));
    else rest.push(arg);
  }
  const [command0, ...more] = rest;
  if (command0 === 'install') return [];
  if (command0 === 'exec') {
    const [bin, sub, ...tasks] = more;
    if (bin !== 'turbo' || sub !== 'run') return [`"${command}": only \`pnpm exec turbo run\``];
    const taskNames = tasks.filter((t) => !t.startsWith('-'));
    const selected = filters.flatMap(resolveFilter);
    const problems: string[] = [];
    if (filters.length === 0) problems.push(`"${command}": turbo without --filter runs everything`);
    for (const filter of filters)
      if (resolveFilter(filter).length === 0) problems.push(`"${command}": no package ${filter}`);
    for (const task of taskNames) {
      if (!TURBO_TASKS.includes(task))
        problems.push(`"${command}": turbo.json has no task ${task}`);
      if (!selected.some((p) => task in p.scripts))
        problems.push(`"${command}": no selected package has a ${task} script`);
      for (const filter of filters.filter((f) => !f.includes('*'))) {
        for (const p of resolveFilter(filter))
          if (!(task in p.scripts)) problems.push(`"${command}": ${p.name} has no ${task} script`);
      }
    }
    return problems;
  }
  if (command0 === undefined) return [`"${command}": no script named`];
  if (filters.length > 0) {
    return filters.flatMap((filter) => {
      const selected = resolveFilter(filter);
      if (selected.length !== 1) return [`"${command}": ${filter} is not one package`];
      return selected.flatMap((p) =>
        command0 in p.scripts ? [] : [`"${command}": ${p.name} has no script ${command0}`],
      );
    });
  }
  return command0 in ROOT_SCRIPTS
    ? []
    : [`"${command}": the root package.json has no script ${command0}`];
}

/** Every command of a `run:` block: one per line, `&&` chains split. */
const commandsOf = (run: string) =>
  run
    .split('\n')
    .flatMap((line) => line.split('&&'))
    .map((c) => c.trim())
    .filter((c) => c && !c.startsWith('#'));

/** Whether a GitHub path filter list selects `file` (`**` any depth, `*` within a segment). */
function covered(filters: string[] | undefined, file: string): boolean {
  return (filters ?? []).some((filter) => {
    const pattern = filter
      .split('**')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*'))
      .join('.*');
    return new RegExp(`^${pattern}$`).test(file);
  });
}

const allSteps = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps);
const stepUsing = (job: Job, action: string) =>
  job.steps.filter((s) => s.uses?.split('@')[0] === action);

/** The index of the only step whose `run` matches (the test fails if none or several do). */
function stepIndex(job: Job, pattern: RegExp): number {
  const indexes = job.steps.flatMap((s, i) => (pattern.test(s.run ?? '') ? [i] : []));
  expect({ pattern: String(pattern), steps: indexes.length }).toEqual({
    pattern: String(pattern),
    steps: 1,
  });
  return indexes[0]!;
}

/** A `run:` script with its backslash line continuations joined. */
const flat = (run: string) => run.replace(/\\\n\s*/g, ' ');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `name:tag` of an image pinned as `name:tag@sha256:<digest>`; undefined when it is not. */
const pinnedNameTag = (reference: string | undefined) => {
  const pinned = parsePinnedImage(reference ?? '');
  return pinned && `${pinned.name}:${pinned.tag}`;
};

// ---- tests --------------------------------------------------------------------------------------

describe('all workflows', () => {
  const files = workflowFiles();

  it('are the two service pipelines and the shared-packages pipeline', () => {
    expect(files.sort()).toEqual([...SERVICES.map((s) => s.file), SHARED_FILE].sort());
  });

  it.each(files)('%s declares least-privilege permissions', (file) => {
    const workflow = readWorkflow(file);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    for (const [id, job] of Object.entries(workflow.jobs)) {
      if (job.permissions === undefined) continue;
      expect(typeof job.permissions).toBe('object');
      const writes = Object.entries(job.permissions as Record<string, string>)
        .filter(([, level]) => level !== 'read' && level !== 'none')
        .map(([scope]) => scope);
      // Only the publishing job may write, and only packages.
      expect({ id, writes }).toEqual({ id, writes: id === 'publish' ? ['packages'] : [] });
    }
  });

  it.each(files)('%s pins every action to a full commit SHA with its version', (file) => {
    const lines = readText(file)
      .split('\n')
      .filter((line) => /^\s*(-\s+)?uses:/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(/uses:\s+[\w.-]+\/[\w./-]+@[0-9a-f]{40}\s+#\s+v\d+(\.\d+){0,2}\s*$/);
    }
  });

  it.each(files)('%s has a concurrency group and runs on pull requests', (file) => {
    const workflow = readWorkflow(file);
    expect(workflow.concurrency?.group).toContain('${{ github.workflow }}');
    expect(workflow.concurrency?.group).toContain('${{ github.ref }}');
    expect(workflow.on).toHaveProperty('pull_request');
    expect(workflow.on).toHaveProperty('push');
  });

  it.each(files)('%s runs only scripts that exist (`pnpm <script>`, filters resolved)', (file) => {
    const workflow = readWorkflow(file);
    const problems: string[] = [];
    for (const [id, job] of Object.entries(workflow.jobs)) {
      const runs = job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
      if (job.steps.some((step) => step.run?.trim() === 'pnpm install --frozen-lockfile')) {
        // A workspace job: every command is a pnpm command that resolves.
        problems.push(...runs.flatMap((run) => commandsOf(run).flatMap(runProblems)));
      } else {
        // An image job (docker, curl, jq): it has no workspace, so no package manager either.
        for (const run of runs)
          if (/\b(pnpm|npm|npx|yarn)\b/.test(run)) problems.push(`${id}: "${run}" without install`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(files)('%s installs pnpm (the packageManager version) and caches the store', (file) => {
    const workflow = readWorkflow(file);
    const pnpmVersion = String(readJson('package.json').packageManager).replace(/^pnpm@/, '');
    for (const [id, job] of Object.entries(workflow.jobs)) {
      if (!job.steps.some((s) => s.run?.includes('pnpm'))) continue;
      const actions = job.steps.map((s) => s.uses?.split('@')[0]);
      const pnpmAt = actions.indexOf('pnpm/action-setup');
      const nodeAt = actions.indexOf('actions/setup-node');
      expect({ id, pnpmFirst: pnpmAt >= 0 && pnpmAt < nodeAt }).toEqual({ id, pnpmFirst: true });
      expect(String(job.steps[pnpmAt]?.with?.version)).toBe(pnpmVersion);
      expect(job.steps[nodeAt]?.with?.cache).toBe('pnpm');
      const install = job.steps.find((s) => s.run?.startsWith('pnpm install'));
      expect(install?.run?.trim()).toBe('pnpm install --frozen-lockfile');
    }
  });

  it('the path-filter matcher and the run checker work as GitHub and pnpm would', () => {
    expect(covered(['packages/**'], 'packages/a/b/c.ts')).toBe(true);
    expect(covered(['packages/*'], 'packages/a/b.ts')).toBe(false);
    expect(covered(['.github/workflows/**'], '.github/workflows/x.yml')).toBe(true);
    expect(covered(['package.json'], 'packages/x/package.json')).toBe(false);
    expect(runProblems('pnpm no-such-script')).not.toEqual([]);
    expect(runProblems('pnpm --filter @dogshop/shop no-such-script')).not.toEqual([]);
    expect(runProblems('pnpm --filter @dogshop/nope test')).not.toEqual([]);
    expect(runProblems('pnpm exec turbo run nope --filter=@dogshop/shop')).not.toEqual([]);
    expect(runProblems('pnpm exec turbo run test --filter=@dogshop/contracts')).not.toEqual([]);
    expect(runProblems('npm test')).not.toEqual([]);
    expect(runProblems('pnpm exec turbo run lint --filter=./packages/*')).toEqual([]);
    expect(runProblems('pnpm --filter @dogshop/shop test')).toEqual([]);
  });
});

describe.each(SERVICES)('$file', (service) => {
  const workflow = readWorkflow(service.file);
  const { container } = service;

  it('runs on changes to the service, the shared packages, the lockfile, its Dockerfile and itself', () => {
    const expected = [
      `${service.dir}/**`,
      'packages/**',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      service.dockerfile,
      `.github/workflows/${service.file}`,
    ];
    for (const event of ['push', 'pull_request']) {
      expect(workflow.on[event]?.paths).toEqual(expect.arrayContaining(expected));
      expect(covered(workflow.on[event]?.paths, `${service.dir}/src/app.ts`)).toBe(true);
    }
    expect(workflow.on.push?.paths).toEqual(workflow.on.pull_request?.paths);
    // Not triggered by the other service.
    const other = SERVICES.find((s) => s !== service);
    expect(workflow.on.push?.paths?.some((p) => other && p.startsWith(other.dir))).toBe(false);
    expect(workflow.on.push?.tags).toEqual(expect.arrayContaining(['v*', `${service.tagPrefix}*`]));
    expect(workflow.on.push?.branches).toEqual(['main']);
  });

  it('runs the infra tests (they start this service) when only the service or a package changes', () => {
    for (const event of ['push', 'pull_request']) {
      for (const file of [`${service.dir}/src/app.ts`, 'packages/contracts/src/common.ts']) {
        const selected = covered(workflow.on[event]?.paths, file);
        expect({ event, file, selected }).toEqual({ event, file, selected: true });
      }
    }
    const jobs = Object.entries(workflow.jobs)
      .filter(([, job]) => job.steps.some((step) => step.run === INFRA_TESTS))
      .map(([id]) => id);
    expect(jobs).toEqual(['infra']);
    // The whole infra suite, so it includes the tests that bundle and start the service (and any
    // added later).
    for (const file of ['bundle.test.ts', 'gateway.e2e.test.ts', 'openapi.test.ts', 'soak.test.ts'])
      expect({ file, exists: existsSync(path.join(INFRA_TEST_DIR, file)) }).toEqual({
        file,
        exists: true,
      });
    expect(workflow.jobs.publish?.needs).toContain('infra');
  });

  it('checks format, lint and typecheck of the service, and that the OpenAPI files are current', () => {
    const runs = workflow.jobs.checks?.steps.map((s) => s.run).filter(Boolean) ?? [];
    expect(runs).toEqual(
      expect.arrayContaining([
        'pnpm format:check',
        `pnpm exec turbo run lint typecheck --filter=${service.packageName}`,
        'pnpm openapi --check',
      ]),
    );
  });

  it(`tests on Node ${TEST_NODE_VERSIONS.join(' and ')} against a real ${service.database.image}`, () => {
    const test = workflow.jobs.test;
    expect(test).toBeDefined();
    const nodes = test?.strategy?.matrix?.node as number[];
    expect(nodes).toEqual(expect.arrayContaining(TEST_NODE_VERSIONS));
    const database = test?.services?.[service.database.service];
    expect(pinnedNameTag(database?.image)).toBe(service.database.image);
    expect(database?.options).toMatch(/--health-cmd/);
    expect(test?.env).toEqual(expect.objectContaining(service.database.env));
    const setupNode = stepUsing(test as Job, 'actions/setup-node')[0];
    expect(setupNode?.with?.['node-version']).toBe('${{ matrix.node }}');
    const runs = test?.steps.map((s) => s.run).filter(Boolean);
    expect(runs).toContain(`pnpm exec turbo run test --filter=${service.packageName}`);
  });

  it('builds the image once, from the service Dockerfile at the repository root, into the runner', () => {
    const builds = Object.entries(workflow.jobs).flatMap(([id, job]) =>
      stepUsing(job, 'docker/build-push-action').map(() => id),
    );
    expect(builds).toEqual(['image']);
    const image = workflow.jobs.image!;
    const build = stepUsing(image, 'docker/build-push-action')[0];
    expect(build?.with).toEqual(
      expect.objectContaining({
        context: '.',
        file: service.dockerfile,
        push: false,
        load: true,
        tags: '${{ env.IMAGE }}',
      }),
    );
    expect(image.env?.IMAGE).toMatch(/^[a-z0-9][a-z0-9/_.-]*:[\w.-]+$/);
    // Written in infra/docker/ alongside these pipelines.
    expect(existsSync(path.join(REPO_ROOT, service.dockerfile))).toBe(true);
  });

  it(`runs that image on a real ${service.database.image} in production, waits for /ready, then makes one real request`, () => {
    const image = workflow.jobs.image!;
    const database = image.services?.[service.database.service];
    expect(pinnedNameTag(database?.image)).toBe(service.database.image);
    expect(database?.options).toMatch(/--health-cmd/);

    // The container's configuration: the database by its service name, a production-length secret.
    const env = image.env ?? {};
    expect(env[container.databaseVariable]).toMatch(
      new RegExp(`^\\w+://(?:[^@/]*@)?${escapeRegExp(container.databaseHost)}/\\w+`),
    );
    expect((env.JWT_SECRET ?? '').length).toBeGreaterThanOrEqual(32);
    for (const name of container.passed)
      expect({ name, set: name in env }).toEqual({ name, set: true });

    const buildAt = image.steps.findIndex(
      (s) => s.uses?.split('@')[0] === 'docker/build-push-action',
    );
    const startAt = stepIndex(image, /docker run --detach/);
    expect(startAt).toBeGreaterThan(buildAt);
    const start = flat(image.steps[startAt]!.run!);
    for (const part of [
      `--name ${container.name}`,
      `--network "\${{ job.services.${service.database.service}.network }}"`,
      `--publish 127.0.0.1:${container.port}:${container.port}`,
      '-e NODE_ENV=production',
      '-e HOST=0.0.0.0',
      `-e ${container.databaseVariable}`,
      ...container.passed.map((name) => `-e ${name}`),
      '"$IMAGE"',
    ]) {
      expect({ part, passed: start.includes(part) }).toEqual({ part, passed: true });
    }
    // Demo data stays off, as in production.
    expect(start).not.toContain('SEED_DEMO');

    // /ready polled with a bound; on timeout the container's logs, then failure.
    const waitAt = stepIndex(image, /\/ready\b/);
    expect(waitAt).toBeGreaterThan(startAt);
    const wait = image.steps[waitAt]!.run!;
    expect(wait).toMatch(
      new RegExp(`curl [^\\n]*--fail[^\\n]* http://127\\.0\\.0\\.1:${container.port}/ready`),
    );
    const bound = Number(/deadline=\$\(\(SECONDS \+ (\d+)\)\)/.exec(wait)?.[1]);
    expect(bound).toBeGreaterThan(0);
    expect(bound).toBeLessThanOrEqual(120);
    expect(wait).toMatch(new RegExp(`docker logs ${container.name}\\s+exit 1`));

    // Then one request that needs the database, checked for success.
    const requestAt = stepIndex(
      image,
      new RegExp(`http://127\\.0\\.0\\.1:${container.port}${escapeRegExp(container.request)}\\b`),
    );
    expect(requestAt).toBeGreaterThan(waitAt);
    const request = flat(image.steps[requestAt]!.run!);
    expect(request).toMatch(/curl [^\n]*--fail/);
    expect(request).toMatch(/jq -e '\.success == true/);

    // SIGTERM: the container stops by itself with exit code 0.
    const stopAt = stepIndex(image, new RegExp(`docker stop [^\\n]*${container.name}`));
    expect(stopAt).toBeGreaterThan(requestAt);
    expect(image.steps[stopAt]!.run).toContain(`{{.State.ExitCode}}' ${container.name}`);
  });

  it('publishes on release tags exactly the image it tested: loaded from its artifact, never rebuilt', () => {
    const image = workflow.jobs.image!;
    const publish = workflow.jobs.publish!;
    expect(publish.if).toContain("github.event_name == 'push'");
    expect(publish.if).toContain("startsWith(github.ref, 'refs/tags/v')");
    expect(publish.if).toContain(`startsWith(github.ref, 'refs/tags/${service.tagPrefix}')`);
    expect(publish.needs).toEqual(expect.arrayContaining(['checks', 'test', 'infra', 'image']));
    expect(publish.permissions).toEqual({ packages: 'write' });

    // No checkout and no build: nothing in the job could produce another image.
    const actions = publish.steps.flatMap((s) => (s.uses ? [s.uses.split('@')[0]] : []));
    expect(actions).toEqual(['actions/download-artifact', 'docker/login-action']);
    expect(publish.steps.some((s) => /docker (buildx )?build\b/.test(s.run ?? ''))).toBe(false);
    const login = stepUsing(publish, 'docker/login-action')[0];
    expect(login?.with?.registry).toBe('ghcr.io');
    expect(login?.with?.password).toBe('${{ secrets.GITHUB_TOKEN }}');

    // The image job saves what it ran, after the checks, only when a publish follows.
    const upload = stepUsing(image, 'actions/upload-artifact')[0];
    const saveAt = stepIndex(image, /docker save "\$IMAGE"/);
    const save = image.steps[saveAt]!;
    expect(save.run).toContain(`> ${String(upload?.with?.path)}`);
    expect(saveAt).toBeGreaterThan(stepIndex(image, /docker stop /));
    expect(save.if).toBe(publish.if);
    expect(upload?.if).toBe(publish.if);
    const download = stepUsing(publish, 'actions/download-artifact')[0];
    expect(download?.with?.name).toBe(upload?.with?.name);

    // The image id recorded right after the build is the one loaded before any push.
    const recorded = image.steps.find((s) => s.id === 'image');
    expect(recorded?.run).toContain(`docker image inspect --format '{{.Id}}' "$IMAGE"`);
    expect(image.outputs?.['image-id']).toBe('${{ steps.image.outputs.id }}');
    expect(publish.env?.IMAGE).toBe(image.env?.IMAGE);
    const push = publish.steps.find((s) => s.run?.includes('docker push'));
    expect(push?.env?.TESTED_ID).toBe('${{ needs.image.outputs.image-id }}');
    const run = push?.run ?? '';
    const loadAt = run.indexOf(`docker load --input ${String(upload?.with?.path)}`);
    const compareAt = run.indexOf('"$loaded" != "$TESTED_ID"');
    const pushAt = run.indexOf('docker push "$tag"');
    expect(loadAt).toBeGreaterThanOrEqual(0);
    expect(compareAt).toBeGreaterThan(loadAt);
    expect(pushAt).toBeGreaterThan(compareAt);
    expect(run).toContain('docker tag "$IMAGE" "$tag"');

    // The tags: GHCR, computed in the image job from the release tag.
    const meta = stepUsing(image, 'docker/metadata-action')[0];
    expect(String(meta?.with?.images)).toMatch(/^ghcr\.io\/\$\{\{ github\.repository \}\}\//);
    expect(String(meta?.with?.tags)).toContain(`(?:${service.tagPrefix.slice(0, -1)})?v`);
    expect(image.outputs?.tags).toBe(`\${{ steps.${meta?.id}.outputs.tags }}`);
    expect(push?.env?.TAGS).toBe('${{ needs.image.outputs.tags }}');
  });
});

describe('shop.yml image job', () => {
  it("migrates first, with compose's shop-migrate command run from the image it built", () => {
    const image = readWorkflow('shop.yml').jobs.image!;
    const migrate = readCompose().services['shop-migrate']?.command ?? [];
    expect(migrate.length).toBeGreaterThan(0);
    const migrateAt = stepIndex(image, /dist\/cli\/index\.js migrate/);
    const run = flat(image.steps[migrateAt]!.run!);
    expect(run).toContain(`"$IMAGE" ${migrate.join(' ')}`);
    for (const part of [
      'docker run --rm',
      '--network "${{ job.services.postgres.network }}"',
      '-e NODE_ENV=production',
      '-e DATABASE_URL',
      '-e JWT_SECRET',
    ]) {
      expect({ part, passed: run.includes(part) }).toEqual({ part, passed: true });
    }
    expect(migrateAt).toBeLessThan(stepIndex(image, /docker run --detach/));
  });
});

describe(SHARED_FILE, () => {
  const workflow = readWorkflow(SHARED_FILE);

  it('runs on changes to the shared packages and the root configuration', () => {
    for (const event of ['push', 'pull_request']) {
      const filters = workflow.on[event]?.paths;
      const files = [
        'packages/contracts/src/common.ts',
        'packages/service-kit/package.json',
        'infra/test/bundle.test.ts',
        'infra/compose.yaml',
        'infra/docker/shop.Dockerfile',
        `.github/workflows/${SHARED_FILE}`,
        ...ROOT_CONFIG,
      ];
      expect(files.filter((file) => !covered(filters, file))).toEqual([]);
    }
    for (const service of SERVICES)
      expect(workflow.on.push?.paths?.some((p) => p.startsWith(service.dir))).toBe(false);
  });

  it('checks and tests the packages, the stand-in also against a real MongoDB', () => {
    const runs = allSteps(workflow).map((s) => s.run);
    expect(runs).toEqual(
      expect.arrayContaining([
        'pnpm format:check',
        'pnpm exec turbo run test --filter=./packages/*',
        INFRA_TESTS,
      ]),
    );
    const test = workflow.jobs.test;
    expect(pinnedNameTag(test?.services?.mongo?.image)).toBe('mongo:8');
    expect(test?.strategy?.matrix?.node).toEqual(expect.arrayContaining(TEST_NODE_VERSIONS));
    const real = test?.steps.find((s) => s.env?.MONGODB_URI);
    expect(real?.env?.MONGODB_URI).toBe('mongodb://localhost:27017');
    expect(real?.run).toBe('pnpm --filter @dogshop/mongo-wire-server test');
  });
});
