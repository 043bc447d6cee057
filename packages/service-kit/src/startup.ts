// What a server or an operator command does when it cannot start: one or two lines naming the
// cause and the fix, a non-zero exit code, and a stack trace only when LOG_LEVEL asks for one.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ConfigError } from './config.js';

/** A start-up failure whose message already names the cause and the fix (printed as is). */
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * Prints why `program` could not start and exits 1. ConfigErrors and StartupErrors are one line
 * each; anything else is its message plus a hint, and its stack only with LOG_LEVEL=debug|trace.
 */
export function exitOnStartupFailure(program: string, error: unknown): never {
  const verbose = /^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '');
  if (error instanceof ConfigError) {
    console.error(`${program}: configuration error: ${error.message}`);
  } else if (error instanceof StartupError) {
    console.error(`${program}: cannot start: ${error.message}`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`${program}: cannot start: ${firstLine(message)}`);
    if (!verbose) console.error('(set LOG_LEVEL=debug to see the stack trace)');
  }
  if (verbose && error instanceof Error && error.stack) console.error(error.stack);
  process.exit(1);
}

const firstLine = (text: string) => text.trim().split('\n')[0] || 'unknown error';

/**
 * Fails with a StartupError when `port` cannot be bound on `host`, naming the process that holds
 * it where this machine says (Linux /proc). Checked before anything is started or printed, so a
 * busy port never costs a database start or a "shown once" secret.
 */
export async function assertPortFree(opts: {
  port: number;
  host: string;
  /** The variable that sets this port, named in the fix. */
  variable: string;
}): Promise<void> {
  if (opts.port === 0) return;
  const problem = await bindProblem(opts.port, opts.host);
  if (!problem) return;
  if (problem === 'EADDRINUSE') throw portInUse(opts.port, opts.variable);
  throw new StartupError(
    `cannot listen on ${opts.host}:${opts.port} (${problem}); set ${opts.variable} (and HOST) to an address this process may use`,
  );
}

/** The StartupError for a port someone else listens on. */
export function portInUse(port: number, variable: string): StartupError {
  const owner = describePortOwner(port);
  return new StartupError(
    `port ${port} is already in use${owner ? ` by ${owner}` : ''}; stop that process or set ${variable} to a free port`,
  );
}

function bindProblem(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/**
 * "process 1234 (node dist/server.js)" for the process listening on TCP `port`, or undefined
 * where that cannot be read (not Linux, or another user's process without root).
 */
export function describePortOwner(port: number): string | undefined {
  try {
    const inodes = listeningSocketInodes(port);
    if (inodes.size === 0) return undefined;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      if (ownsSocket(pid, inodes)) return describeProcess(Number(pid));
    }
  } catch {
    // no /proc: say nothing about the owner
  }
  return undefined;
}

/** "process 1234 (postgres -D …)", or "process 1234" when its command line is unreadable. */
export function describeProcess(pid: number): string {
  try {
    const [program, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean);
    if (program) {
      return `process ${pid} (${[path.basename(program), ...args].join(' ').slice(0, 160)})`;
    }
  } catch {
    // gone, or not ours to read
  }
  return `process ${pid}`;
}

function listeningSocketInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let rows: string[];
    try {
      rows = readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue;
    }
    for (const row of rows) {
      const fields = row.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; field 9 is the socket's inode.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) {
        inodes.add(fields[9]);
      }
    }
  }
  return inodes;
}

function ownsSocket(pid: string, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
    } catch {
      return false;
    }
  });
}

/**
 * Calls `attempt` until it resolves, for at most `timeoutMs`, pausing between tries. Start-up
 * uses it for a database that may still be coming up (compose starts both at once): a bounded
 * wait, then one StartupError from `describeFailure(lastError)`.
 */
export async function waitUntilReachable(opts: {
  attempt: () => Promise<void>;
  timeoutMs: number;
  describeFailure: (lastError: unknown) => string;
  /** Called once, when the first attempt fails and waiting starts. */
  onWaiting?: (error: unknown) => void;
  /** Failures that waiting cannot mend (wrong password, no such database): fail at once. */
  isPermanent?: (error: unknown) => boolean;
}): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let told = false;
  for (;;) {
    try {
      await opts.attempt();
      return;
    } catch (error) {
      if (Date.now() + 500 > deadline || opts.isPermanent?.(error)) {
        throw new StartupError(opts.describeFailure(error));
      }
      if (!told) opts.onWaiting?.(error);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** mongodb://user:secret@host → mongodb://***@host (any scheme), for messages and logs. */
export const withoutCredentials = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
