import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli/commands.js';
import { PACKAGE_ROOT } from '../../src/config.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BUILT_CLI = path.join(PACKAGE_ROOT, 'dist', 'cli', 'index.js');

/** The newest modification time below `dir`. */
function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return entry.isDirectory() ? newest(full) : statSync(full).mtimeMs;
    }),
  );
}

/**
 * How the CLI is started: its build (`dist/cli/index.js`, what `pnpm cli` runs) when it is newer
 * than every source, as under turbo, whose test task builds first; else the sources through tsx
 * (a test run right after an edit). The build starts in about a second, tsx in several.
 */
function cliCommand(): string[] {
  let built = 0;
  try {
    built = statSync(BUILT_CLI).mtimeMs;
  } catch {
    // not built
  }
  const sources = Math.max(
    newest(path.join(PACKAGE_ROOT, 'src')),
    newest(path.join(PACKAGE_ROOT, '..', '..', 'packages', 'service-kit', 'src')),
    newest(path.join(PACKAGE_ROOT, '..', '..', 'packages', 'contracts', 'src')),
  );
  return built > sources
    ? [BUILT_CLI]
    : ['--conditions=@dogshop/source', '--import', 'tsx', 'src/cli/index.ts'];
}

/** The environment a command runs with against `databaseUrl`, `env` on top (e.g. REDIS_URL). */
const cliEnv = (databaseUrl: string, env: Record<string, string>) => ({
  DATABASE_URL: databaseUrl,
  JWT_SECRET: 'j'.repeat(32),
  ...env,
});

/**
 * Runs the shop's operator commands in this process (`runCli` of src/cli/commands.ts, as the
 * entry point runs it) and collects what they print, a line each as `console.log` would.
 */
export async function runCliInProcess(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    { NODE_ENV: 'test', ...cliEnv(databaseUrl, env) },
    { out: (line) => (stdout += `${line}\n`), err: (line) => (stderr += `${line}\n`) },
  );
  return { code, stdout, stderr };
}

/**
 * Runs the shop's operator CLI as its own process against `databaseUrl`, with `env` on top (e.g.
 * REDIS_URL), and collects what it prints.
 */
export function runCliProcess(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--experimental-wasm-modules',
        '--disable-warning=ExperimentalWarning',
        ...cliCommand(),
        ...args,
      ],
      {
        cwd: PACKAGE_ROOT,
        env: { ...process.env, ...cliEnv(databaseUrl, env) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
