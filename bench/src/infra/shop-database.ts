import { cleanEnv, runToCompletion } from '@dogshop/child-processes';
import { JWT_SECRET, packageDir } from './services.js';

/** Applies the shop's migrations with its own `migrate` command (Prisma's schema engine). */
export async function migrateShopDatabase(databaseUrl: string): Promise<string> {
  const output = await runToCompletion({
    command: process.execPath,
    args: [
      '--experimental-wasm-modules',
      '--disable-warning=ExperimentalWarning',
      'dist/cli/index.js',
      'migrate',
    ],
    cwd: packageDir('@dogshop/shop'),
    timeoutMs: 120_000,
    env: cleanEnv({ DATABASE_URL: databaseUrl, JWT_SECRET, NODE_ENV: 'production' }),
  });
  return output.trim();
}
