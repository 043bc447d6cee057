// The GitHub pipelines (.github/workflows/): one per service with path filters, one for the shared
// packages. GitHub cannot run here, so these tests check what can be checked offline: triggers and
// path filters, least-privilege permissions, actions pinned by commit, every `run:` calling a
// script that exists, real database containers for the tests, and the image built from the
// service's Dockerfile and published on release tags only.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORKFLOW_DIR = path.join(REPO_ROOT, '.github/workflows');

// ---- what the workflows are about --------------------------------------------------------------

interface ServicePipeline {
  file: string;
  packageName: string;
  dir: string;
  dockerfile: string;
  tagPrefix: string;
  database: { service: string; image: string; env: Record<string, string> };
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

// ---- reading ------------------------------------------------------------------------------------

interface Step {
  name?: string;
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
    const problems = allSteps(readWorkflow(file))
      .filter((step) => step.run !== undefined)
      .flatMap((step) => commandsOf(step.run ?? '').flatMap(runProblems));
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
    const container = test?.services?.[service.database.service];
    expect(container?.image).toBe(service.database.image);
    expect(container?.options).toMatch(/--health-cmd/);
    expect(test?.env).toEqual(expect.objectContaining(service.database.env));
    const setupNode = stepUsing(test as Job, 'actions/setup-node')[0];
    expect(setupNode?.with?.['node-version']).toBe('${{ matrix.node }}');
    const runs = test?.steps.map((s) => s.run).filter(Boolean);
    expect(runs).toContain(`pnpm exec turbo run test --filter=${service.packageName}`);
  });

  it('builds the image from the service Dockerfile at the repository root', () => {
    const builds = Object.values(workflow.jobs).flatMap((job) =>
      stepUsing(job, 'docker/build-push-action'),
    );
    expect(builds.length).toBeGreaterThanOrEqual(2);
    for (const build of builds) {
      expect(build.with?.file).toBe(service.dockerfile);
      expect(build.with?.context).toBe('.');
    }
    // Written in infra/docker/ alongside these pipelines.
    expect(existsSync(path.join(REPO_ROOT, service.dockerfile))).toBe(true);
    const image = workflow.jobs.image;
    expect(stepUsing(image as Job, 'docker/build-push-action')[0]?.with?.push).toBe(false);
  });

  it('publishes to GHCR only on release tags, from the only job that may write packages', () => {
    const publish = workflow.jobs.publish;
    expect(publish?.if).toContain("github.event_name == 'push'");
    expect(publish?.if).toContain("startsWith(github.ref, 'refs/tags/v')");
    expect(publish?.if).toContain(`startsWith(github.ref, 'refs/tags/${service.tagPrefix}')`);
    expect(publish?.needs).toEqual(expect.arrayContaining(['checks', 'test', 'image']));
    expect(publish?.permissions).toEqual({ contents: 'read', packages: 'write' });
    const login = stepUsing(publish as Job, 'docker/login-action')[0];
    expect(login?.with?.registry).toBe('ghcr.io');
    expect(login?.with?.password).toBe('${{ secrets.GITHUB_TOKEN }}');
    const meta = stepUsing(publish as Job, 'docker/metadata-action')[0];
    expect(String(meta?.with?.images)).toMatch(/^ghcr\.io\//);
    const push = stepUsing(publish as Job, 'docker/build-push-action')[0];
    expect(push?.with?.push).toBe(true);
    expect(push?.with?.tags).toBe(`\${{ steps.${meta?.id}.outputs.tags }}`);
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
        'pnpm exec turbo run test --filter=@dogshop/infra',
      ]),
    );
    const test = workflow.jobs.test;
    expect(test?.services?.mongo?.image).toBe('mongo:8');
    expect(test?.strategy?.matrix?.node).toEqual(expect.arrayContaining(TEST_NODE_VERSIONS));
    const real = test?.steps.find((s) => s.env?.MONGODB_URI);
    expect(real?.env?.MONGODB_URI).toBe('mongodb://localhost:27017');
    expect(real?.run).toBe('pnpm --filter @dogshop/mongo-wire-server test');
  });
});
