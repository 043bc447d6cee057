// Server-side cursors. A query's full result is computed up front (collections are small in
// development) and handed out in batches; the registry remembers where each cursor is. Cursors
// nobody touches for CURSOR_TIMEOUT_MS are dropped, like mongod's 10-minute idle timeout.
import { randomInt } from 'node:crypto';
import { calculateObjectSize, Long } from 'bson';
import { CommandError, type Doc } from './errors.js';

const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 1000;
/** MongoDB's default first batch for find/aggregate when no batchSize is given. */
export const DEFAULT_FIRST_BATCH = 101;
/**
 * Like mongod, cap a batch at about 16 MB so the reply stays under maxBsonObjectSize (and the
 * bson serializer's buffer); the client simply asks for more.
 */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

/** End index (exclusive) of the batch starting at `start`: at most `count` docs, always ≥ 1. */
function batchEnd(docs: Doc[], start: number, count: number): number {
  const limit = Math.min(docs.length, start + count);
  let bytes = 0;
  let end = start;
  while (end < limit) {
    bytes += calculateObjectSize(docs[end]!);
    if (bytes > MAX_BATCH_BYTES && end > start) break;
    end += 1;
  }
  return end;
}

interface OpenCursor {
  ns: string;
  docs: Doc[];
  position: number;
  lastUsed: number;
}

export interface Batch {
  /** Long 0 once the cursor is exhausted (drivers require an int64 here). */
  id: Long;
  docs: Doc[];
}

export class CursorRegistry {
  private readonly cursors = new Map<number, OpenCursor>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly timeoutMs = CURSOR_TIMEOUT_MS) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  /** Returns the first batch; registers a cursor only if documents remain after it. */
  open(ns: string, docs: Doc[], batchSize: number | undefined, singleBatch = false): Batch {
    const size = batchSize === undefined ? DEFAULT_FIRST_BATCH : batchSize;
    const first = docs.slice(0, size === 0 ? 0 : batchEnd(docs, 0, size));
    if (singleBatch || first.length >= docs.length) return { id: Long.ZERO, docs: first };
    // Ids stay below 2^53 so they decode to exact JS numbers when the driver sends them back.
    let id: number;
    do id = randomInt(1, 2 ** 48);
    while (this.cursors.has(id));
    this.cursors.set(id, { ns, docs, position: first.length, lastUsed: Date.now() });
    return { id: Long.fromNumber(id), docs: first };
  }

  getMore(rawId: unknown, batchSize: number | undefined): Batch & { ns: string } {
    const id = Number(rawId);
    const cursor = this.cursors.get(id);
    if (!cursor) {
      throw new CommandError(43, 'CursorNotFound', `cursor id ${String(rawId)} not found`);
    }
    const end = batchEnd(cursor.docs, cursor.position, batchSize || cursor.docs.length);
    const docs = cursor.docs.slice(cursor.position, end);
    cursor.position += docs.length;
    cursor.lastUsed = Date.now();
    if (cursor.position >= cursor.docs.length) {
      this.cursors.delete(id);
      return { id: Long.ZERO, docs, ns: cursor.ns };
    }
    return { id: Long.fromNumber(id), docs, ns: cursor.ns };
  }

  /** Kills the given cursors; returns which ids existed. */
  kill(rawIds: unknown[]): { killed: Long[]; notFound: Long[] } {
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const raw of rawIds) {
      const id = Number(raw);
      (this.cursors.delete(id) ? killed : notFound).push(Long.fromNumber(id));
    }
    return { killed, notFound };
  }

  sweep(now: number): void {
    for (const [id, cursor] of this.cursors) {
      if (now - cursor.lastUsed > this.timeoutMs) this.cursors.delete(id);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    this.cursors.clear();
  }
}
