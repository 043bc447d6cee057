// The GitHub pipelines (.github/workflows/): one per service, one for the shared packages. GitHub
// cannot run here, so these tests read the files for what matters: each service's pipeline runs on
// its own changes and on the shared code's (checked on the literal `paths:` lists; GitHub does
// the matching), least-privilege permissions, actions pinned by commit, every pnpm command naming
// a script that exists, and the built image run against a real database until /ready answers
// (MongoDB, as in production, a replica set of one: the directory writes in transactions).
// Image references are pinned by digest: compose.test.ts checks that for every deployment file.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { REPO_ROOT } from './support/paths.js';

type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Job = {
  steps: Step[];
  needs?: string[];
  permissions?: object;
  services?: Services;
  env?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
};
type Services = Record<string, { image: string }>;
type Workflow = {
  on: Record<string, { paths?: string[] }>;
  permissions?: object;
  env?: Record<string, string>;
  jobs: Jobs;
};
type Jobs = Record<string, Job>;

const WORKFLOW_DIR = path.join(REPO_ROOT, '.github/workflows');
const FILES = readdirSync(WORKFLOW_DIR).filter((file) => /\.ya?ml$/.test(file));
const readText = (file: string) => readFileSync(path.join(WORKFLOW_DIR, file), 'utf8');
const readWorkflow = (file: string) => parse(readText(file)) as Workflow;
const readJson = (file: string) =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as {
    name: string;
    scripts?: Record<string, string>;
  };
const runsOf = (workflow: Workflow) =>
  Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => step.run ?? []));

const SERVICES = [
  { service: 'shop', database: 'postgres', port: 3000 },
  { service: 'handler-directory', database: 'mongo', port: 3001 },
];
/** What every pipeline also builds on: the shared packages, the documents, the root config. */
const SHARED_PATHS = [
  'packages/**',
  'openapi/**',
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'turbo.json',
  'tsconfig.base.json',
  'jest.preset.js',
  'eslint.config.js',
];
const INFRA_TESTS = 'pnpm exec turbo run test --filter=@dogshop/infra';

const { packages: globs } = parse(
  readFileSync(path.join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8'),
) as { packages: string[] };
const PACKAGES = globs
  .flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(path.join(REPO_ROOT, glob.slice(0, -2))).map((d) => `${glob.slice(0, -2)}/${d}`)
      : [glob],
  )
  .filter((dir) => existsSync(path.join(REPO_ROOT, dir, 'package.json')))
  .map((dir) => ({ dir, ...readJson(`${dir}/package.json`) }));
const ROOT_SCRIPTS = readJson('package.json').scripts ?? {};

/**
 * The scripts a pnpm command names that do not exist: `pnpm <root script>`, `pnpm --filter
 * <package> <script>`, `pnpm exec turbo run <scripts> --filter=<package or ./dir/*>`. Other
 * commands (docker, curl, jq in the image jobs) are not pnpm's and give nothing.
 */
function missingScripts(command: string): string[] {
  const [tool, ...words] = command.trim().split(/\s+/);
  if (tool !== 'pnpm') return [];
  const filters = words.flatMap((w, i) =>
    w.startsWith('--filter=') ? [w.slice(9)] : words[i - 1] === '--filter' ? [w] : [],
  );
  const rest = words.filter((w, i) => !w.startsWith('--filter') && words[i - 1] !== '--filter');
  if (rest[0] === 'install') return [];
  const turbo = rest.slice(0, 3).join(' ') === 'exec turbo run';
  const scripts = turbo ? rest.slice(3).filter((w) => !w.startsWith('-')) : rest.slice(0, 1);
  if (!turbo && filters.length === 0) return scripts.filter((s) => !(s in ROOT_SCRIPTS));
  const selections = filters.map((filter) => ({
    filter,
    packages: PACKAGES.filter((p) =>
      filter.endsWith('/*') ? p.dir.startsWith(filter.slice(2, -1)) : p.name === filter,
    ),
  }));
  if (selections.length === 0) selections.push({ filter: 'workspace', packages: PACKAGES });
  return selections.flatMap(({ filter, packages }) =>
    scripts
      .filter((script) => !packages.some((p) => p.scripts?.[script]))
      .map((script) => `${filter} ${script}`),
  );
}

describe('the workflows', () => {
  it('are one pipeline per service and one for the shared packages', () => {
    expect(FILES.sort()).toEqual(['handler-directory.yml', 'shared-packages.yml', 'shop.yml']);
  });

  it.each(FILES)('%s reads the contents; only a publish job writes, and only packages', (file) => {
    const workflow = readWorkflow(file);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    for (const [id, job] of Object.entries(workflow.jobs))
      expect({ id, permissions: job.permissions }).toEqual({
        id,
        permissions: id === 'publish' ? { packages: 'write' } : undefined,
      });
  });

  it.each(FILES)('%s pins every action to a commit', (file) => {
    const uses = readText(file).match(/uses:\s*\S+/g) ?? [];
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.filter((u) => !/@[0-9a-f]{40}$/.test(u))).toEqual([]);
  });

  it.each(FILES)('%s runs only scripts that exist', (file) => {
    const commands = runsOf(readWorkflow(file)).flatMap((run) => run.split(/\n|&&/));
    expect(commands.flatMap(missingScripts)).toEqual([]);
  });

  it('(the script check finds what is missing)', () => {
    expect(missingScripts('pnpm no-such-script')).toEqual(['no-such-script']);
    expect(missingScripts('pnpm --filter @dogshop/shop nope')).toEqual(['@dogshop/shop nope']);
    expect(missingScripts('pnpm exec turbo run test --filter=@dogshop/contracts')).not.toEqual([]);
    expect(missingScripts('pnpm exec turbo run lint --filter=./packages/*')).toEqual([]);
  });
});

describe.each(SERVICES)('the $service pipeline', ({ service, database, port }) => {
  const workflow = readWorkflow(`${service}.yml`);

  it("runs on the service's own changes and on the shared code's, not the other service's", () => {
    const own = [
      `services/${service}/**`,
      `infra/docker/${service}.Dockerfile`,
      `.github/workflows/${service}.yml`,
    ];
    const other = SERVICES.find((s) => s.service !== service)!.service;
    for (const event of ['push', 'pull_request']) {
      const paths = workflow.on[event]?.paths ?? [];
      expect(paths).toEqual(expect.arrayContaining([...own, ...SHARED_PATHS]));
      expect(paths.filter((p) => p.includes(other))).toEqual([]);
    }
  });

  it('tests the service, and runs the infra tests that bundle and start it', () => {
    expect(runsOf(workflow)).toEqual(
      expect.arrayContaining([
        `pnpm exec turbo run test --filter=@dogshop/${service}`,
        INFRA_TESTS,
      ]),
    );
  });

  it('runs the image it built against a real database until /ready answers', () => {
    const image = workflow.jobs.image!;
    const build = image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(build?.with).toMatchObject({ push: false, load: true, tags: '${{ env.IMAGE }}' });
    const runs = image.steps.flatMap((s) => s.run ?? []);
    const start = runs.findIndex(
      (r) => r.includes('docker run --detach') && r.includes('"$IMAGE"'),
    );
    expect(start).toBeGreaterThanOrEqual(0);
    // The database: a service container, or one this job starts itself on a network of its own
    // (MongoDB needs a command, `--replSet`, which service containers cannot take).
    const service = image.services?.[database];
    if (service) {
      expect(service.image).toMatch(new RegExp(`^${database}:`));
      expect(runs[start]).toContain(`--network "\${{ job.services.${database}.network }}"`);
    } else {
      const started = databaseContainer(workflow, 'image', database);
      expect(started.image).toMatch(new RegExp(`^${database}:`));
      expect(started.at).toBeLessThan(start);
      expect(runs[start]).toContain(`--network ${started.network}`);
    }
    const ready = runs.findIndex((r) => r.includes(`http://127.0.0.1:${port}/ready`));
    expect(ready).toBeGreaterThan(start);
    expect(runs[ready]).toMatch(/until curl [^\n]*--fail/);
    // A release publishes that image: the publish job waits for it and builds nothing itself.
    expect(workflow.jobs.publish?.needs).toContain('image');
    expect(workflow.jobs.publish?.steps.some((s) => s.uses?.includes('build-push'))).toBe(false);
  });
});

describe('the handler-directory pipeline’s MongoDB', () => {
  const workflow = readWorkflow('handler-directory.yml');
  const initiate = (host: string) =>
    `rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: '${host}' }] })`;

  it.each([
    // The test job reaches the member through the published port, the image by its name.
    {
      job: 'test',
      host: 'localhost:27017',
      uri: /^mongodb:\/\/localhost:27017\/\?replicaSet=rs0$/,
    },
    { job: 'image', host: 'mongo:27017', uri: /^mongodb:\/\/mongo:27017\/\w+\?replicaSet=rs0$/ },
  ])(
    'is a replica set of one in the $job job, initiated before it is used',
    ({ job, host, uri }) => {
      const steps = workflow.jobs[job]!.steps;
      const runs = steps.flatMap((s) => s.run ?? []);
      const started = databaseContainer(workflow, job, 'mongo');
      expect(started.image).toMatch(/^mongo:8@sha256:[0-9a-f]{64}$/);
      expect(started.args).toEqual(['--replSet', 'rs0', '--bind_ip_all']);
      const initiated = runs.findIndex((r) => r.includes(initiate(host)));
      expect(initiated).toBeGreaterThan(started.at);
      // Waits for the primary, with a deadline, before anything uses the database.
      expect(runs[initiated]).toMatch(/until docker exec mongo mongosh [\s\S]*isWritablePrimary/);
      expect(runs[initiated]).toMatch(/deadline=/);
      const firstUse = runs.findIndex(
        (r) =>
          r.startsWith('pnpm exec turbo run test') ||
          (r.includes('docker run --detach') && r.includes('"$IMAGE"')),
      );
      expect(firstUse).toBeGreaterThan(initiated);
      expect(workflow.jobs[job]!.env?.MONGODB_URI).toMatch(uri);
    },
  );

  it('keeps the Node matrix of the tests', () => {
    expect(workflow.jobs.test!.strategy?.matrix?.node).toEqual([20, 22, 24]);
  });
});

/**
 * The database container a job starts itself: `docker run --detach --name <name> ... "$X_IMAGE"
 * <args>`, with X_IMAGE from the workflow's env; where it runs among the job's `run` steps, its
 * network (if any), image and arguments.
 */
function databaseContainer(workflow: Workflow, job: string, name: string) {
  const runs = workflow.jobs[job]!.steps.flatMap((s) => s.run ?? []);
  const pattern = new RegExp(`docker run --detach --name ${name} ([^"]*)"\\$(\\w+)"([^\\n]*)`);
  const at = runs.findIndex((r) => pattern.test(r.replace(/\\\n\s*/g, '')));
  expect({ job, name, started: at >= 0 }).toEqual({ job, name, started: true });
  const [, options, variable, args] = pattern.exec(runs[at]!.replace(/\\\n\s*/g, ''))!;
  const network = /--network (\S+)/.exec(options!)?.[1];
  if (network)
    expect(runs.slice(0, at + 1).join('\n')).toContain(`docker network create ${network}`);
  return {
    at,
    network,
    image: workflow.env?.[variable!] ?? '',
    args: args!.trim().split(/\s+/),
  };
}

describe('shared-packages.yml', () => {
  const workflow = readWorkflow('shared-packages.yml');

  it('runs on the shared code, infra, bench and itself, not on a service', () => {
    for (const event of ['push', 'pull_request']) {
      const paths = workflow.on[event]?.paths ?? [];
      expect(paths).toEqual(
        expect.arrayContaining([...SHARED_PATHS, 'infra/**', 'bench/**', '.github/workflows/**']),
      );
      expect(paths.filter((p) => p.startsWith('services/'))).toEqual([]);
    }
  });

  it('tests the packages and runs the infra tests', () => {
    expect(runsOf(workflow)).toEqual(
      expect.arrayContaining(['pnpm exec turbo run test --filter=./packages/*', INFRA_TESTS]),
    );
  });
});
