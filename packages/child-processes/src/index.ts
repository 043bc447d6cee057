// Child processes for the infra tests, the soak run and the benchmark harness: each starts real
// programs (services from their build, nginx, pgbench, CLIs) and must report their output when
// something goes wrong.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment a child process starts with: only what a shell needs to run programs, plus
 * `vars`. Nothing of the caller's own environment (NODE_ENV=test, DATABASE_URL or MONGODB_URI of
 * the pipeline, NODE_OPTIONS …) leaks into the process under test.
 */
export function cleanEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    if (process.env[name] !== undefined) base[name] = process.env[name];
  }
  return { ...base, ...vars };
}

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** The last ~100 kB it printed (stdout and stderr), for failure messages. */
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal) once it has exited. */
  exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit; SIGKILL after `timeoutMs`. Resolves the exit code. */
  stop: (signal?: NodeJS.Signals, timeoutMs?: number) => Promise<number | null>;
}

export function startProcess(opts: {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Sees every piece of output as it arrives (to watch for a line). */
  onOutput?: (chunk: string) => void;
}): RunningProcess {
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    opts.onOutput?.(text);
    output += text;
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      output += `\n[spawn error] ${error.message}`;
      resolve(-1);
    });
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  return { name: opts.name, child, pid: child.pid ?? -1, output: () => output, exited, stop };
}

/**
 * Runs a command to completion; throws with its output unless it exits 0. Asynchronous, so that
 * servers inside the calling process (the MongoDB stand-in in tests) keep answering meanwhile.
 */
export async function runToCompletion(opts: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<string> {
  const proc = startProcess({ name: opts.command, ...opts });
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
  try {
    const code = await proc.exited;
    if (code !== 0) {
      throw new Error(
        `${opts.command} ${opts.args.join(' ')} exited with ${code}:\n${proc.output()}`,
      );
    }
    return proc.output();
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `url` until it answers 200; fails at once with the process's output if it exits. */
export async function waitForOk(
  url: string,
  proc: RunningProcess,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => (exited = true));
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`${proc.name} exited before ${url} answered 200:\n${proc.output()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (${last}):\n${proc.output()}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes raw bytes to 127.0.0.1:`port` (in pieces, `pauseMs` apart) and reads until the server
 * closes the connection: for answers Node's HTTP parser gives before any handler runs.
 */
export function rawHttpExchange(
  port: number,
  parts: string[],
  opts: { pauseMs?: number; maxMs?: number } = {},
): Promise<{ text: string; closedAfterMs: number }> {
  const { pauseMs = 0, maxMs = 5_000 } = opts;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const writeNext = (i: number) => {
      if (socket.destroyed || i >= parts.length) return;
      socket.write(parts[i]!);
      timer = setTimeout(() => writeNext(i + 1), pauseMs);
    };
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${maxMs} ms: ${text}`));
    }, maxMs);
    socket.on('connect', () => writeNext(0));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', () => {}); // the server may reset after answering
    socket.on('close', () => {
      clearTimeout(timer);
      clearTimeout(guard);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
  });
}

/** A raw HTTP/1.1 answer split into its status line, lower-cased headers and body. */
export function parseRawHttpAnswer(text: string): {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
} {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const [name = '', value = ''] = line.split(/:\s*/, 2);
      return [name.toLowerCase(), value];
    }),
  );
  return { statusLine, headers, body };
}

export { RedisServer } from './redis-server.js';
