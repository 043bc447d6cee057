import { spawn } from 'node:child_process';
import { PACKAGE_ROOT } from '../../src/config.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the shop's operator CLI (`src/cli/index.ts`, through tsx) as its own process against
 * `databaseUrl`, with `env` on top (e.g. REDIS_URL), and collects what it prints.
 */
export function runCli(
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
        '--conditions=@dogshop/source',
        '--import',
        'tsx',
        'src/cli/index.ts',
        ...args,
      ],
      {
        cwd: PACKAGE_ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, JWT_SECRET: 'j'.repeat(32), ...env },
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
