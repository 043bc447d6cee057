import { acquireDataDirLock } from './data-dir-lock.js';
import { describeProcess, StartupError } from './startup.js';

/** What both services' `openDatabase` resolves to: the database a process talks to. */
export interface OpenedDatabase {
  url: string;
  /** True for a database of the data folder (development and tests), false for a configured URL. */
  embedded: boolean;
  /** One line for logs: which database this is. */
  description: string;
  /** Stops what this process started (nothing for a configured or joined database). */
  close(): Promise<void>;
}

/** An embedded database this process has just started. */
export interface StartedDatabase {
  url: string;
  description: string;
  /** Recorded in the lock for processes that join (e.g. which engine runs). */
  kind?: string;
  stop(): Promise<void>;
}

/**
 * The embedded database of a data folder, owned by one process at a time (lock file with its pid
 * and address). A second server refuses to start, naming the owner; an operator command
 * (`joinRunning`) uses the running server's database instead of starting a second copy.
 */
export async function openEmbeddedDatabase(opts: {
  dataDir: string;
  lockFile: string;
  /** Named in messages: "the embedded PostgreSQL". */
  what: string;
  /** The variable that points at a real server instead: "DATABASE_URL". */
  urlVariable: string;
  joinRunning?: boolean;
  start: () => Promise<StartedDatabase>;
}): Promise<OpenedDatabase> {
  const lock = acquireDataDirLock(opts.dataDir, opts.lockFile);
  if (!lock.acquired) {
    const { pid, uri, kind } = lock.owner;
    if (opts.joinRunning && uri) {
      return {
        url: uri,
        embedded: true,
        description: `${opts.what}${kind ? ` (${kind})` : ''} of the running server (${describeProcess(pid)})`,
        close: async () => {},
      };
    }
    throw new StartupError(
      `${opts.what} in ${opts.dataDir} is in use by ${describeProcess(pid)}` +
        (uri ? '' : ' (still starting)') +
        `; stop that process first, or set ${opts.urlVariable}`,
    );
  }
  try {
    const started = await opts.start();
    lock.publish({ uri: started.url, ...(started.kind && { kind: started.kind }) });
    return {
      url: started.url,
      embedded: true,
      description: started.description,
      close: async () => {
        try {
          await started.stop();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
