// Multi-document transactions, serialised: at most one transaction is open in the whole server.
//
// Inside it, statements change the store at once (so the transaction reads its own writes) while
// the store records what each change replaced (storage/undo-log.ts); an abort puts everything
// back, newest first. Nobody else ever sees those uncommitted writes:
// - a read outside the transaction (any session, any connection) runs at once on the committed
//   state: the transaction's changes are undone, the read runs, they are redone, all in one
//   synchronous step;
// - a write outside it waits for the transaction to end, at most WRITE_WAIT_MS; after that the
//   transaction is aborted and the write goes ahead;
// - another transaction's first statement waits at most START_WAIT_MS, then fails with
//   WriteConflict and the TransientTransactionError label, like a write conflict in mongod: the
//   driver's `withTransaction` (and Mongoose's `connection.transaction`) retry with backoff.
// Nothing waits without a bound because a waiting command holds one of the client's pooled
// connections: with a small pool (the directory's is 10) enough waiters would leave the
// transaction no connection for its next statement, and everything would stall.
//
// The protocol as the driver speaks it and MongoDB answers it: statements carry `lsid`,
// `txnNumber` and `autocommit: false`, the first one `startTransaction: true`; then
// `commitTransaction` or `abortTransaction` (sent to `admin`); a commit retried after success
// succeeds again. A statement that fails aborts the transaction, as mongod does (write errors
// included); later statements, a commit or an abort of an aborted or unknown transaction answer
// 251 NoSuchTransaction with the TransientTransactionError label. A transaction open longer than
// the lifetime limit (mongod's transactionLifetimeLimitSeconds, 60 s) is aborted, and so is one
// whose connection closes, so a crashed client cannot keep the server blocked.
import { isCommand, runCommand } from './commands/index.js';
import type { CommandContext, TransactionScope } from './commands/context.js';
import type { CursorRegistry } from './cursors.js';
import type { Doc } from './errors.js';
import { canonicalKey } from './storage/keys.js';
import type { Store } from './storage/store.js';
import type { UndoEntry } from './storage/undo-log.js';

/** mongod's default transactionLifetimeLimitSeconds. */
export const DEFAULT_TRANSACTION_LIFETIME_SECONDS = 60;
/** How long a write outside the open transaction waits before the transaction is aborted. */
export const WRITE_WAIT_MS = 200;
/** How long another transaction's first statement waits before WriteConflict (retried). */
export const START_WAIT_MS = 20;

/**
 * Commands that touch no stored data (a cursor's results were computed when it was opened, from
 * the state its opener saw): they never wait for an open transaction.
 */
const UNGUARDED = new Set([
  'getMore',
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'buildInfo',
  'getParameter',
  'getCmdLineOpts',
  'whatsmyuri',
  'connectionStatus',
  'killCursors',
]);

/** Commands that only read: outside a transaction they run on the committed state at once. */
const READS = new Set([
  'find',
  'count',
  'distinct',
  'aggregate', // unless it ends in $out (see isRead)
  'listCollections',
  'listIndexes',
  'listDatabases',
]);

/** What MongoDB lets run inside a transaction (its allow-list, minus what we don't have). */
const ALLOWED_IN_TRANSACTION = new Set([
  'aggregate',
  'create',
  'createIndexes',
  'delete',
  'distinct',
  'find',
  'findAndModify',
  'findandmodify',
  'getMore',
  'insert',
  'killCursors',
  'update',
]);

/** Sessions whose last transaction ended this long ago are forgotten (logicalSessionTimeout). */
const SESSION_MEMORY_MS = 30 * 60 * 1000;

interface OpenTransaction {
  session: string;
  txnNumber: number;
  undo: UndoEntry[];
  scope: TransactionScope;
  /** Connections that carried a statement: closing any of them aborts the transaction. */
  connections: Set<number>;
  timer: NodeJS.Timeout;
}

/** The last transaction number each session used, and how that transaction ended. */
interface SessionRecord {
  txnNumber: number;
  state: 'inProgress' | 'committed' | 'aborted';
  updatedAt: number;
}

export interface RequestContext {
  db: string;
  connectionId: number;
  remoteAddress: string;
  /** True once the client's connection is gone: a waiting command is then dropped unrun. */
  closed: () => boolean;
}

export interface CoordinatorOptions {
  store: Store;
  cursors: CursorRegistry;
  lifetimeMs: number;
  /** Persistence, held while a transaction is open so only committed state is saved. */
  persistence?: { hold(): void; release(): void } | undefined;
  log: (msg: string) => void;
}

const fail = (code: number, codeName: string, errmsg: string, extra: Doc = {}): Doc => ({
  ok: 0,
  errmsg,
  code,
  codeName,
  ...extra,
});

const noSuchTransaction = (errmsg: string): Doc =>
  fail(251, 'NoSuchTransaction', errmsg, { errorLabels: ['TransientTransactionError'] });

const invalidOptions = (errmsg: string): Doc => fail(72, 'InvalidOptions', errmsg);

/** A session's identity: its `lsid` document (`{ id: UUID }`, plus `uid` with authentication). */
const sessionKeyOf = (lsid: unknown): string | undefined =>
  lsid !== null && typeof lsid === 'object' ? canonicalKey(lsid) : undefined;

const numberOf = (value: unknown): number | undefined =>
  value === undefined || value === null ? undefined : Number(value);

function isRead(name: string, command: Doc): boolean {
  if (!READS.has(name)) return false;
  if (name !== 'aggregate' || !Array.isArray(command.pipeline)) return true;
  const last = command.pipeline[command.pipeline.length - 1] as unknown;
  return !(last !== null && typeof last === 'object' && ('$out' in last || '$merge' in last));
}

export class TransactionCoordinator {
  private open: OpenTransaction | undefined;
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly opts: CoordinatorOptions) {}

  /**
   * Runs one command as its transaction state allows (waiting first, within bounds, if it is a
   * write and another session's transaction is open). Resolves to the reply, or to undefined
   * when the client left while the command waited.
   */
  async execute(command: Doc, req: RequestContext): Promise<Doc | undefined> {
    const name = Object.keys(command)[0] ?? '';
    const session = sessionKeyOf(command.lsid);
    const txnNumber = numberOf(command.txnNumber);

    if (name === 'commitTransaction' || name === 'abortTransaction') {
      return this.finish(name, command, session, txnNumber);
    }
    if (command.autocommit !== undefined || command.startTransaction !== undefined) {
      return this.inTransaction(name, command, session, txnNumber, req);
    }
    if (name === 'endSessions') this.endSessions(command.endSessions);
    if (!this.open || UNGUARDED.has(name) || name === 'endSessions' || !isCommand(name)) {
      return this.run(command, req);
    }

    // A newer transaction number on the session holding the transaction aborts it, as in mongod.
    if (session === this.open.session && (txnNumber ?? -1) > this.open.txnNumber) {
      this.abort('a newer transaction number was used on its session');
      return this.run(command, req);
    }
    if (isRead(name, command)) {
      const open = this.open;
      return this.opts.store.withoutChanges(open.undo, () => this.run(command, req));
    }
    // A write waits for the transaction to end, within bounds. The loop's last check and what
    // follows it run in one synchronous step: nothing else can start a transaction in between.
    const deadline = Date.now() + WRITE_WAIT_MS;
    while (this.open) {
      if (Date.now() >= deadline) {
        this.abort(`a '${name}' outside it waited ${WRITE_WAIT_MS} ms for it to end`);
        break;
      }
      await this.nextTurn(deadline);
      if (req.closed()) return undefined;
    }
    return this.run(command, req);
  }

  /** The client's connection closed: its open transaction (if any) is aborted. */
  connectionClosed(connectionId: number): void {
    if (this.open?.connections.has(connectionId)) {
      this.abort(`its connection ${connectionId} closed`);
    }
  }

  /** Server shutdown: aborts the open transaction (the store keeps only committed state). */
  close(): void {
    if (this.open) this.abort('the server is closing');
    this.wakeAll();
  }

  private run(command: Doc, req: RequestContext, transaction?: OpenTransaction): Doc {
    const ctx: CommandContext = {
      store: this.opts.store,
      cursors: this.opts.cursors,
      db: req.db,
      connectionId: req.connectionId,
      remoteAddress: req.remoteAddress,
      ...(transaction ? { transaction: transaction.scope } : {}),
    };
    return runCommand(command, ctx);
  }

  /** A statement of a transaction (`autocommit: false`), the first one with `startTransaction`. */
  private async inTransaction(
    name: string,
    command: Doc,
    session: string | undefined,
    txnNumber: number | undefined,
    req: RequestContext,
  ): Promise<Doc | undefined> {
    if (command.autocommit !== false) {
      return invalidOptions(
        command.autocommit === undefined
          ? 'startTransaction requires autocommit: false'
          : 'autocommit:true is not supported',
      );
    }
    if (session === undefined || txnNumber === undefined) {
      return invalidOptions('a transaction statement needs an lsid and a txnNumber');
    }
    if (command.startTransaction !== undefined && command.startTransaction !== true) {
      return invalidOptions('startTransaction must be true');
    }
    if (!ALLOWED_IN_TRANSACTION.has(name)) {
      return fail(
        263,
        'OperationNotSupportedInTransaction',
        `Cannot run '${name}' in a multi-document transaction.`,
      );
    }

    if (command.startTransaction === true) {
      // As for writes outside: the loop's last check and `begin` run in one synchronous step.
      const deadline = Date.now() + START_WAIT_MS;
      while (this.open && this.open.session !== session) {
        if (Date.now() >= deadline) return this.conflict(session, txnNumber);
        await this.nextTurn(deadline);
        if (req.closed()) return undefined;
      }
      const refused = this.begin(session, txnNumber);
      if (refused) return refused;
    } else {
      const refused = this.continuing(session, txnNumber);
      if (refused) return refused;
      if (command.readConcern !== undefined) {
        return invalidOptions('Only the first command in a transaction may specify a readConcern');
      }
    }

    const open = this.open!;
    open.connections.add(req.connectionId);
    const reply = this.opts.store.recording(open.undo, () => this.run(command, req, open));
    // mongod aborts the transaction when a statement fails, write errors included.
    if (reply.ok !== 1 || Array.isArray(reply.writeErrors)) {
      this.abort('a statement failed', false);
    }
    return reply;
  }

  /** Opens a transaction; the caller made sure no other session holds one. */
  private begin(session: string, txnNumber: number): Doc | undefined {
    const open = this.open;
    if (open) {
      // The same session: a newer number replaces its transaction, as in mongod.
      if (txnNumber > open.txnNumber) this.abort('a newer transaction started on its session');
      else return this.tooOld(txnNumber, open.txnNumber);
    }
    const record = this.sessions.get(session);
    if (record && txnNumber < record.txnNumber) return this.tooOld(txnNumber, record.txnNumber);
    if (record && txnNumber === record.txnNumber) {
      return fail(
        50911,
        'Location50911',
        `Cannot start a transaction at given transaction number ${txnNumber} a transaction with ` +
          `the same number is in state ${record.state === 'committed' ? 'TxnCommitted' : 'TxnAborted'}`,
      );
    }

    this.forgetOldSessions();
    const opened: OpenTransaction = {
      session,
      txnNumber,
      undo: [],
      scope: { cursorIds: new Set() },
      connections: new Set(),
      timer: setTimeout(() => {
        if (this.open !== opened) return;
        this.abort(`it was open longer than the lifetime limit of ${this.opts.lifetimeMs} ms`);
      }, this.opts.lifetimeMs),
    };
    opened.timer.unref();
    this.open = opened;
    this.sessions.set(session, { txnNumber, state: 'inProgress', updatedAt: Date.now() });
    this.opts.persistence?.hold();
    return undefined;
  }

  /** Why a later statement cannot continue this session's transaction, if it cannot. */
  private continuing(session: string, txnNumber: number): Doc | undefined {
    const open = this.open;
    if (open && open.session === session) {
      if (txnNumber === open.txnNumber) return undefined;
      if (txnNumber < open.txnNumber) return this.tooOld(txnNumber, open.txnNumber);
      this.abort('a newer transaction number was used on its session');
    }
    return this.notOpen(session, txnNumber);
  }

  /** The reply for a transaction number that is not the open transaction. */
  private notOpen(session: string, txnNumber: number): Doc {
    const record = this.sessions.get(session);
    if (record?.txnNumber === txnNumber) {
      if (record.state === 'committed') {
        return fail(
          256,
          'TransactionCommitted',
          `Transaction with { txnNumber: ${txnNumber} } has been committed.`,
        );
      }
      return noSuchTransaction(`Transaction with { txnNumber: ${txnNumber} } has been aborted.`);
    }
    return noSuchTransaction(
      `Given transaction number ${txnNumber} does not match any in-progress transactions.` +
        (record ? ` The active transaction number is ${record.txnNumber}` : ''),
    );
  }

  /**
   * Another session's transaction stayed open: this one fails at its first statement with what
   * mongod answers a write conflict in a transaction (which also ends that transaction).
   */
  private conflict(session: string, txnNumber: number): Doc {
    this.sessions.set(session, { txnNumber, state: 'aborted', updatedAt: Date.now() });
    return fail(
      112,
      'WriteConflict',
      'Write conflict during plan execution and yielding is disabled. :: Please retry your ' +
        'operation or multi-document transaction. (mongo-wire-server: another transaction is ' +
        'open; transactions run one at a time)',
      { errorLabels: ['TransientTransactionError'] },
    );
  }

  private tooOld(txnNumber: number, newer: number): Doc {
    return fail(
      225,
      'TransactionTooOld',
      `Cannot start transaction ${txnNumber} on session because a newer transaction ${newer} has ` +
        `already started.`,
    );
  }

  /** `commitTransaction` / `abortTransaction`: never wait, they concern the session's own. */
  private finish(
    name: 'commitTransaction' | 'abortTransaction',
    command: Doc,
    session: string | undefined,
    txnNumber: number | undefined,
  ): Doc {
    if (session === undefined || txnNumber === undefined || command.autocommit !== false) {
      return invalidOptions(`${name} must be run within a transaction`);
    }
    const open = this.open;
    if (open && open.session === session && open.txnNumber === txnNumber) {
      if (name === 'commitTransaction') this.commit();
      else this.abort('the client aborted it', false);
      return { ok: 1 };
    }
    if (open && open.session === session && txnNumber > open.txnNumber) {
      this.abort('a newer transaction number was used on its session');
    }
    const record = this.sessions.get(session);
    // The driver retries a commit whose answer it did not get: a committed one commits again.
    if (name === 'commitTransaction' && record?.txnNumber === txnNumber) {
      if (record.state === 'committed') return { ok: 1 };
    }
    return this.notOpen(session, txnNumber);
  }

  private commit(): void {
    const open = this.open!;
    this.sessions.set(open.session, {
      txnNumber: open.txnNumber,
      state: 'committed',
      updatedAt: Date.now(),
    });
    this.end(open);
  }

  /** Undoes the open transaction's writes and lets waiting commands run. */
  private abort(reason: string, logIt = true): void {
    const open = this.open;
    if (!open) return;
    this.opts.store.undo(open.undo);
    this.opts.cursors.kill(Array.from(open.scope.cursorIds));
    this.sessions.set(open.session, {
      txnNumber: open.txnNumber,
      state: 'aborted',
      updatedAt: Date.now(),
    });
    if (logIt) {
      this.opts.log(
        `mongo-wire-server: aborted transaction ${open.txnNumber} because ${reason}; ` +
          `${open.undo.length} change(s) undone`,
      );
    }
    this.end(open);
  }

  private end(open: OpenTransaction): void {
    clearTimeout(open.timer);
    this.open = undefined;
    this.opts.persistence?.release();
    this.wakeAll();
  }

  /** `endSessions`: mongod aborts their open transactions and forgets them. */
  private endSessions(list: unknown): void {
    if (!Array.isArray(list)) return;
    for (const lsid of list) {
      const key = sessionKeyOf(lsid);
      if (key === undefined) continue;
      if (this.open?.session === key) this.abort('its session ended');
      this.sessions.delete(key);
    }
  }

  private forgetOldSessions(): void {
    if (this.sessions.size < 1000) return;
    const before = Date.now() - SESSION_MEMORY_MS;
    for (const [key, record] of this.sessions) {
      if (record.state !== 'inProgress' && record.updatedAt < before) this.sessions.delete(key);
    }
  }

  /**
   * Resolves when the open transaction ends (waiters in arrival order), or at `deadline`. The
   * caller checks the state again afterwards: the promise settles a tick later, when anything
   * may have happened.
   */
  private nextTurn(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      this.waiters.add(done);
    });
  }

  private wakeAll(): void {
    const waiting = Array.from(this.waiters);
    this.waiters.clear();
    for (const wake of waiting) wake();
  }
}
