// Child processes for the infra tests, the soak run and the benchmark harness: each starts real
// programs (services from their build, nginx, pgbench, CLIs) and must report their output when
// something goes wrong. execa spawns and awaits them, get-port finds ports; what is ours is the
// clean environment, the output kept for failure messages, and waiting for an answer.
import net from 'node:net';
import { execa, type ResultPromise } from 'execa';
import getPort from 'get-port';

/** A TCP port nobody listens on right now, and not handed out by this process in the last 15 s. */
export function freePort(): Promise<number> {
  return getPort({ host: '127.0.0.1' });
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

/** What execa's options below make of a started process. */
type Subprocess = ResultPromise<{ stdin: 'ignore'; all: true; buffer: false; reject: false }>;

export interface RunningProcess {
  name: string;
  child: Subprocess;
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
  /** The whole environment (see cleanEnv): nothing of this process's is added. */
  env: NodeJS.ProcessEnv;
  /** Sees every piece of output as it arrives (to watch for a line). */
  onOutput?: (chunk: string) => void;
}): RunningProcess {
  const child = execa(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    stdin: 'ignore',
    all: true,
    // A long run's output is kept here (its tail), not buffered whole by execa.
    buffer: false,
    reject: false,
    // stop() decides when to escalate to SIGKILL.
    forceKillAfterDelay: false,
  });
  let output = '';
  child.all.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    opts.onOutput?.(text);
    output += text;
    if (output.length > 200_000) output = output.slice(-100_000);
  });
  const exited = new Promise<number | null>((resolve) => {
    // On 'exit' rather than when execa settles: a grandchild (nginx's workers, a database the
    // service started) may keep the output pipes open after the process itself has gone.
    child.once('exit', (code) => resolve(code));
    void child.then((result) => {
      if (result.exitCode !== undefined || result.signal !== undefined) return;
      output += `\n[spawn error] ${result.shortMessage}`;
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
 * Runs a command to completion and returns its output (stdout and stderr interleaved); throws
 * execa's error, which carries that output, unless it exits 0 within `timeoutMs`. Asynchronous,
 * so that servers inside the calling process (the MongoDB stand-in in tests) keep answering.
 */
export async function runToCompletion(opts: {
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment (see cleanEnv). */
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<string> {
  const { all } = await execa(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    stdin: 'ignore',
    all: true,
    stripFinalNewline: false,
    timeout: opts.timeoutMs ?? 60_000,
    killSignal: 'SIGKILL',
  });
  return all;
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
 * `partsWritten` says how far the writing got before the server closed (a slow-loris cut).
 */
export function rawHttpExchange(
  port: number,
  parts: string[],
  opts: { pauseMs?: number; maxMs?: number } = {},
): Promise<{ text: string; closedAfterMs: number; partsWritten: number }> {
  const { pauseMs = 0, maxMs = 5_000 } = opts;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    let written = 0;
    const writeNext = (i: number) => {
      if (socket.destroyed || i >= parts.length) return;
      socket.write(parts[i]!);
      written = i + 1;
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
      resolve({ text, closedAfterMs: Date.now() - started, partsWritten: written });
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
