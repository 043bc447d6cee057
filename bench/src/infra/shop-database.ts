import { cleanEnv, runToCompletion } from '@dogshop/child-processes';
import { JWT_SECRET, WEBHOOK_SECRET_KEY, packageDir } from './services.js';

/** Runs one of the shop's operator commands (its built CLI) against `databaseUrl`. */
export async function runShopCommand(
  databaseUrl: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<string> {
  const output = await runToCompletion({
    command: process.execPath,
    args: [
      '--experimental-wasm-modules',
      '--disable-warning=ExperimentalWarning',
      'dist/cli/index.js',
      ...args,
    ],
    cwd: packageDir('@dogshop/shop'),
    timeoutMs,
    env: cleanEnv({
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      WEBHOOK_SECRET_KEY,
      NODE_ENV: 'production',
    }),
  });
  return output.trim();
}

/** Applies the shop's migrations with its own `migrate` command (Prisma's schema engine). */
export const migrateShopDatabase = (databaseUrl: string) =>
  // A migration that builds an index over the cached million takes minutes (the search tokens:
  // about 4 on a busy 2-core machine).
  runShopCommand(databaseUrl, ['migrate'], 20 * 60_000);
