// infra/compose.yaml cannot be started here (no Docker engine); these checks keep it consistent
// with the files it refers to: the env file, the services' own variables, the gateway template,
// the Dockerfiles and the start order the services need.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseDocument } from 'yaml';
import { COMPOSE_FILE, readCompose } from './support/deployment-files.js';
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
      'shop',
      'shop-migrate',
    ]);
  });

  it('runs PostgreSQL 17 and MongoDB 8 as a replica set of one, initiated by its health check', () => {
    expect(services.postgres!.image).toMatch(/^postgres:17([.-]|$)/);
    expect(services.mongo!.image).toMatch(/^mongo:8([.-]|$)/);
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
    });
    expect(services['handler-directory']!.depends_on).toEqual({
      mongo: { condition: 'service_healthy' },
    });
    expect(services.gateway!.depends_on).toEqual({
      shop: { condition: 'service_healthy' },
      'handler-directory': { condition: 'service_healthy' },
    });
    // Whatever is waited on as healthy has a health check: its own, or its image's HEALTHCHECK.
    for (const name of ['postgres', 'mongo', 'gateway']) {
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
});

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
