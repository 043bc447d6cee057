import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, startProcess, type RunningProcess } from './index.js';

/** Debian's path first: the package scripts install `redis-server` there when it is missing. */
const REDIS_SERVER = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';

/**
 * A real redis-server of its own on `port` (loopback, no persistence), for tests of what replicas
 * share. `stop()` kills it as an outage would; `start()` again brings it back on the same port.
 */
export class RedisServer {
  private process: RunningProcess | undefined;
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'redis-server-'));

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it; resolves once it accepts clients, rejects with its output if it exits first. */
  async start(): Promise<void> {
    let ready = () => {};
    const accepting = new Promise<void>((resolve) => (ready = resolve));
    let seen = '';
    const proc = startProcess({
      name: 'redis-server',
      command: REDIS_SERVER,
      args: [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      cwd: this.dir,
      env: cleanEnv({}),
      onOutput: (chunk) => {
        seen += chunk;
        if (seen.includes('Ready to accept connections')) ready();
      },
    });
    this.process = proc;
    const exited = proc.exited.then((code) => {
      throw new Error(`redis-server exited (${code}) before it was ready:\n${proc.output()}`);
    });
    await Promise.race([accepting, exited]);
    exited.catch(() => {}); // a later exit is stop()'s business
  }

  /** Kills it at once (SIGKILL), as a crash or a lost network would. */
  async stop(): Promise<void> {
    const proc = this.process;
    this.process = undefined;
    await proc?.stop('SIGKILL');
  }

  /** Stops it and removes its folder. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
