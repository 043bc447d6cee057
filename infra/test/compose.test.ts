// infra/compose.yaml cannot be started here (no Docker engine); these checks keep it consistent
// with the files it refers to: the env file, the services' own variables, the gateway template,
// the Dockerfiles and the start order the services need. They also hold every image the
// deployment files pull (compose, Dockerfiles, workflows) to one digest-pinned reference each.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse, parseDocument } from 'yaml';
import {
  COMPOSE_FILE,
  dockerfileInstructions,
  parsePinnedImage,
  pulledImages,
  readCompose,
  WORKFLOW_DIR,
  type PulledImage,
} from './support/deployment-files.js';
import { INFRA_DIR, REPO_ROOT, serviceDir } from './support/paths.js';

const compose = readCompose();
const services = compose.services;
const composeText = readFileSync(COMPOSE_FILE, 'utf8');

/** Names of the variables an env file sets (`NAME=value`) or documents (`# NAME=`). */
function envFileVariables(file: string): { set: Map<string, string>; documented: Set<string> } {
  const set = new Map<string, string>();
  const documented = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const assignment = /^\s*(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!assignment) continue;
    documented.add(assignment[2]!);
    if (!assignment[1]) set.set(assignment[2]!, assignment[3]!);
  }
  return { set, documented };
}

describe('infra/compose.yaml', () => {
  it('is valid YAML', () => {
    const document = parseDocument(composeText);
    expect(document.errors.map((e) => e.message)).toEqual([]);
    expect(Object.keys(services).sort()).toEqual([
      'gateway',
      'handler-directory',
      'mongo',
      'postgres',
      'redis',
      'shop',
      'shop-migrate',
    ]);
  });

  it('runs PostgreSQL 17 and MongoDB 8 as a replica set of one, initiated by its health check', () => {
    expect(services.postgres!.image).toMatch(/^postgres:17@sha256:[0-9a-f]{64}$/);
    expect(services.mongo!.image).toMatch(/^mongo:8@sha256:[0-9a-f]{64}$/);
    expect(services.mongo!.command).toEqual(['mongod', '--replSet', 'rs0', '--bind_ip_all']);
    const check = services.mongo!.healthcheck!.test.join(' ');
    expect(check).toContain(
      "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongo:27017' }] })",
    );
    expect(check).toContain('isWritablePrimary');
    expect(services['handler-directory']!.environment!.MONGODB_URI).toMatch(
      /^mongodb:\/\/mongo:27017\/[^?]+\?replicaSet=rs0$/,
    );
  });

  it('starts in order: databases healthy → migrations done → services healthy → gateway', () => {
    expect(services['shop-migrate']!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
    });
    expect(services.shop!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      'shop-migrate': { condition: 'service_completed_successfully' },
      redis: { condition: 'service_healthy' },
    });
    expect(services['handler-directory']!.depends_on).toEqual({
      mongo: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(services.gateway!.depends_on).toEqual({
      shop: { condition: 'service_healthy' },
      'handler-directory': { condition: 'service_healthy' },
    });
    // Whatever is waited on as healthy has a health check: its own, or its image's HEALTHCHECK.
    for (const name of ['postgres', 'mongo', 'redis', 'gateway']) {
      expect(services[name]!.healthcheck?.test.length).toBeGreaterThan(0);
    }
    for (const name of ['shop', 'handler-directory'] as const) {
      const dockerfile = readFileSync(path.join(INFRA_DIR, 'docker', `${name}.Dockerfile`), 'utf8');
      expect(dockerfile).toMatch(/^HEALTHCHECK .*\\\n\s+CMD \[.*\/ready/m);
    }
  });

  it('migrates with the shop image and configuration, and builds each image from its Dockerfile', () => {
    const migrate = services['shop-migrate']!;
    expect(migrate.image).toBe(services.shop!.image);
    expect(migrate.build).toEqual(services.shop!.build);
    expect(migrate.environment).toEqual(services.shop!.environment);
    expect(migrate.command?.slice(-2)).toEqual(['dist/cli/index.js', 'migrate']);
    for (const [name, dockerfile] of [
      ['shop-migrate', 'infra/docker/shop.Dockerfile'],
      ['shop', 'infra/docker/shop.Dockerfile'],
      ['handler-directory', 'infra/docker/handler-directory.Dockerfile'],
    ] as const) {
      expect(services[name]!.build).toEqual({ context: '..', dockerfile });
      expect(existsSync(path.join(REPO_ROOT, dockerfile))).toBe(true);
    }
  });

  it('keeps data in named volumes and publishes only the gateway', () => {
    const declared = Object.keys(compose.volumes);
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.')) {
          // A bind mount of a file or folder of this repository (read-only).
          expect({ name, volume, exists: existsSync(path.join(INFRA_DIR, source)) }).toEqual({
            name,
            volume,
            exists: true,
          });
          expect(volume.endsWith(':ro')).toBe(true);
        } else {
          expect(declared).toContain(source);
        }
      }
      if (name !== 'gateway') expect(service.ports).toBeUndefined();
    }
    expect(services.gateway!.ports).toEqual(['${GATEWAY_PORT:-8080}:8080']);
  });

  it('gives the gateway template every placeholder it has, through nginx’s own template step', () => {
    const gateway = services.gateway!;
    const template = readFileSync(path.join(INFRA_DIR, 'gateway', 'gateway.conf.template'), 'utf8');
    const placeholders = new Set(
      [...template.matchAll(/\$\{(GATEWAY_[A-Z_]+)\}/g)].map((m) => m[1]),
    );
    const provided = Object.keys(gateway.environment!).filter((k) => k.startsWith('GATEWAY_'));
    expect(provided.sort()).toEqual([...placeholders].sort());
    expect(gateway.environment!.NGINX_ENVSUBST_FILTER).toBe('^GATEWAY_');
    expect(gateway.volumes).toContain(
      './gateway/gateway.conf.template:/etc/nginx/templates/default.conf.template:ro',
    );
    expect(gateway.environment!.GATEWAY_SHOP_UPSTREAM).toBe('shop:3000');
    expect(gateway.environment!.GATEWAY_HANDLER_DIRECTORY_UPSTREAM).toBe('handler-directory:3001');
  });
  it('runs two replicas of each service, sharing one Redis, behind the gateway', () => {
    for (const name of ['shop', 'handler-directory']) {
      const service = services[name]!;
      expect({ name, replicas: service.deploy?.replicas }).toEqual({ name, replicas: 2 });
      expect({ name, REDIS_URL: service.environment!.REDIS_URL }).toEqual({
        name,
        REDIS_URL: 'redis://redis:6379',
      });
    }
    // The migration runs once, whatever the number of shop replicas.
    expect(services['shop-migrate']!.deploy).toBeUndefined();
    expect(services.redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('runs both services as in production: explicit database URLs, HOST as the images set it', () => {
    const shop = services.shop!.environment!;
    const directory = services['handler-directory']!.environment!;
    for (const [name, env, urlVariable, url] of [
      ['shop', shop, 'DATABASE_URL', /^postgresql:\/\/[^@]+@postgres:5432\/\S+$/],
      ['handler-directory', directory, 'MONGODB_URI', /^mongodb:\/\/mongo:27017\/\S+$/],
    ] as const) {
      expect({ name, NODE_ENV: env.NODE_ENV, HOST: env.HOST }).toEqual({
        name,
        NODE_ENV: 'production',
        HOST: '0.0.0.0',
      });
      expect(env[urlVariable]).toMatch(url);
      // Demo data is a decision of infra/.env, never an accident of the default.
      expect(env.SEED_DEMO).toBe('${SEED_DEMO:-false}');
      // The image itself says the same (compose only repeats it).
      const runtime = runtimeEnv(name);
      expect({ name, NODE_ENV: runtime.NODE_ENV, HOST: runtime.HOST }).toEqual({
        name,
        NODE_ENV: 'production',
        HOST: '0.0.0.0',
      });
    }
  });

  it('gives the one command that starts it, also in infra/docker/README.md', () => {
    const header = composeText.split('\n').filter((line) => line.startsWith('#'));
    const commands = header
      .map((line) => line.replace(/^#\s*/, ''))
      .filter((line) => line.startsWith('docker compose '))
      .map((line) => line.replace(/\s+#.*$/, '').trim());
    expect(commands).toHaveLength(1);
    const [command] = commands as [string];
    // Run from the repository root: the files it names exist there.
    expect(command).toMatch(/^docker compose -f infra\/compose\.yaml .*\bup\b.*--build/);
    expect(command).toContain('--env-file infra/.env');
    expect(existsSync(path.join(REPO_ROOT, 'infra', '.env.example'))).toBe(true);
    const readme = readFileSync(path.join(INFRA_DIR, 'docker', 'README.md'), 'utf8');
    const upCommands = readme
      .split('\n')
      .filter((line) => /^docker compose .*\bup\b/.test(line.trim()))
      .map((line) => line.trim());
    expect(upCommands).toEqual([command]);
  });
});

/**
 * Images a workflow runs with `docker run "$<NAME>_IMAGE"` rather than as a service container
 * (MongoDB, which must start with `--replSet`): the `*_IMAGE` variables of its `env`, workflow-
 * or job-wide. (`IMAGE` alone is the image a job builds, not one it pulls.)
 */
function workflowRunImages(): PulledImage[] {
  const images: PulledImage[] = [];
  for (const file of readdirSync(WORKFLOW_DIR).filter((f) => /\.ya?ml$/.test(f))) {
    const workflow = parse(readFileSync(path.join(WORKFLOW_DIR, file), 'utf8')) as {
      env?: Record<string, string>;
      jobs: Record<string, { env?: Record<string, string> }>;
    };
    const scopes = [
      ['env', workflow.env],
      ...Object.entries(workflow.jobs).map(([job, { env }]) => [`${job}.env`, env] as const),
    ] as const;
    for (const [scope, env] of scopes) {
      for (const [name, reference] of Object.entries(env ?? {})) {
        if (!name.endsWith('_IMAGE')) continue;
        const where = `${scope}.${name}`;
        images.push({
          file: path.relative(REPO_ROOT, path.join(WORKFLOW_DIR, file)),
          where,
          reference,
        });
      }
    }
  }
  return images;
}

describe('images the deployment files pull', () => {
  const images = [...pulledImages(), ...workflowRunImages()];

  it('include the MongoDB the handler-directory pipeline starts with docker run', () => {
    expect(
      workflowRunImages().map(({ file, where, reference }) => ({
        file,
        where,
        name: reference.replace(/@.*$/, ''),
      })),
    ).toEqual([
      {
        file: '.github/workflows/handler-directory.yml',
        where: 'env.MONGO_IMAGE',
        name: 'mongo:8',
      },
    ]);
  });

  it('are found in compose, both Dockerfiles and the workflows', () => {
    const names = new Set(images.map((image) => image.reference.replace(/@.*$/, '')));
    expect([...names].sort()).toEqual([
      'mongo:8',
      'nginxinc/nginx-unprivileged:1.28-alpine',
      'node:24-slim',
      'postgres:17',
      'redis:7.4-alpine',
    ]);
    const files = new Set(images.map((image) => image.file));
    for (const file of [
      'infra/compose.yaml',
      'infra/docker/shop.Dockerfile',
      'infra/docker/handler-directory.Dockerfile',
      '.github/workflows/shop.yml',
      '.github/workflows/handler-directory.yml',
      '.github/workflows/shared-packages.yml',
    ]) {
      expect({ file, pulls: files.has(file) }).toEqual({ file, pulls: true });
    }
  });

  it('are each pinned as name:tag@sha256:<digest>', () => {
    const unpinned = images.filter((image) => parsePinnedImage(image.reference) === undefined);
    expect(unpinned).toEqual([]);
  });

  it('use one digest per image across all files', () => {
    const digests = new Map<string, Set<string>>();
    for (const image of images) {
      const pinned = parsePinnedImage(image.reference);
      if (!pinned) continue;
      const key = `${pinned.name}:${pinned.tag}`;
      digests.set(key, (digests.get(key) ?? new Set()).add(pinned.digest));
    }
    const inconsistent = [...digests].filter(([, set]) => set.size !== 1).map(([key]) => key);
    expect(inconsistent).toEqual([]);
  });
});

/** The ENV of a Dockerfile's runtime stage (`ENV A=1 B=2`, continuations joined). */
function runtimeEnv(service: 'shop' | 'handler-directory'): Record<string, string> {
  const instructions = dockerfileInstructions(service);
  const runtimeAt = instructions.findIndex((i) => /^FROM\s.*\sAS\s+runtime$/i.test(i));
  expect(runtimeAt).toBeGreaterThanOrEqual(0);
  const env: Record<string, string> = {};
  for (const instruction of instructions.slice(runtimeAt + 1)) {
    if (/^FROM\s/i.test(instruction)) break;
    if (!/^ENV\s/.test(instruction)) continue;
    for (const [, key, value] of instruction.slice(4).matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g))
      env[key!] = value!;
  }
  return env;
}

describe('infra/.env.example', () => {
  const example = envFileVariables(path.join(INFRA_DIR, '.env.example'));
  const interpolated = new Map<string, string>();
  for (const match of composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)(:?[-?][^}]*)?\}/g)) {
    interpolated.set(match[1]!, match[2] ?? '');
  }

  it('lists every variable compose reads, and no other', () => {
    expect([...example.set.keys()].sort()).toEqual([...interpolated.keys()].sort());
  });

  it('holds no secrets: every required variable is empty', () => {
    const required = [...interpolated].filter(([, modifier]) => modifier.startsWith(':?'));
    expect(required.map(([name]) => name).sort()).toEqual([
      'DIRECTORY_ADMIN_PASSWORD',
      'DIRECTORY_JWT_SECRET',
      'POSTGRES_PASSWORD',
      'SHOP_JWT_SECRET',
      'SHOP_WEBHOOK_SECRET_KEY',
    ]);
    for (const [name] of required)
      expect({ name, value: example.set.get(name) }).toEqual({ name, value: '' });
    expect(example.set.get('SHOP_API_KEY')).toBe('');
  });

  it.each(['shop', 'handler-directory'] as const)(
    'sets only variables the %s documents in its own .env.example',
    (service) => {
      const own = envFileVariables(path.join(serviceDir(service), '.env.example')).documented;
      const composeService = services[service]!;
      const unknown = Object.keys(composeService.environment!).filter((name) => !own.has(name));
      expect(unknown).toEqual([]);
    },
  );
});
