import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { INFRA_DIR } from './paths.js';
import {
  cleanEnv,
  runToCompletion,
  startProcess,
  waitForOk,
  type RunningProcess,
} from '@dogshop/child-processes';

/**
 * The nginx binary: NGINX_BINARY, else /usr/sbin/nginx or nginx on PATH. Missing nginx fails the
 * test (never skips it): .ci/run installs it from Debian (`apt-get install nginx-light`).
 */
export function locateNginx(): string {
  const configured = process.env.NGINX_BINARY;
  const candidates = configured
    ? [configured]
    : [
        '/usr/sbin/nginx',
        ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'nginx')),
      ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  throw new Error(
    (configured
      ? `NGINX_BINARY=${configured} is not an executable file. `
      : 'nginx is not installed: ') +
      'the gateway test runs the real gateway. Install it with ' +
      '`apt-get install -y nginx-light` (Debian/Ubuntu; .ci/run does this) or set NGINX_BINARY.',
  );
}

export interface Gateway {
  url: string;
  process: RunningProcess;
  /** The access log so far (one JSON object per line). */
  accessLog: () => string;
  stop: () => Promise<number | null>;
}

/**
 * Renders the gateway template with infra/gateway/render.mjs into `prefix` and runs it in a real
 * nginx in the foreground, its pid, logs and temporary files inside `prefix`.
 */
export async function startGateway(opts: {
  prefix: string;
  port: number;
  /** The replicas of each service (one port each, on 127.0.0.1). */
  shopPorts: number[];
  handlerDirectoryPorts: number[];
  openapiFile: string;
  docsDir: string;
}): Promise<Gateway> {
  const nginx = locateNginx();
  await runToCompletion({
    command: process.execPath,
    args: [
      path.join(INFRA_DIR, 'gateway', 'render.mjs'),
      '--prefix',
      opts.prefix,
      '--listen',
      `127.0.0.1:${opts.port}`,
      '--shop',
      opts.shopPorts.map((port) => `127.0.0.1:${port}`).join(','),
      '--handler-directory',
      opts.handlerDirectoryPorts.map((port) => `127.0.0.1:${port}`).join(','),
      '--openapi-file',
      opts.openapiFile,
      '--docs-dir',
      opts.docsDir,
    ],
    cwd: opts.prefix,
    env: cleanEnv({}),
  });
  const args = ['-p', opts.prefix, '-c', path.join(opts.prefix, 'nginx.conf')];
  await runToCompletion({
    command: nginx,
    args: [...args, '-t', '-q'],
    cwd: opts.prefix,
    env: cleanEnv({}),
  });
  const proc = startProcess({
    name: 'nginx',
    command: nginx,
    args: [...args, '-g', 'daemon off;'],
    cwd: opts.prefix,
    env: cleanEnv({}),
  });
  const url = `http://127.0.0.1:${opts.port}`;
  await waitForOk(`${url}/gateway/health`, proc, 10_000);
  return {
    url,
    process: proc,
    accessLog: () => readFileSync(path.join(opts.prefix, 'access.log'), 'utf8'),
    // QUIT: nginx's graceful shutdown (finish open requests); TERM would be its fast one.
    stop: () => proc.stop('SIGQUIT'),
  };
}
