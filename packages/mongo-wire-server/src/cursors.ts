// Server-side cursors. A query's full result is computed up front (collections are small in
// development) and handed out in batches; the registry remembers where each cursor is. Cursors
// nobody touches for CURSOR_TIMEOUT_MS are dropped, like mongod's 10-minute idle timeout.
import { randomInt } from 'node:crypto';
import { Long } from 'bson';
import { CommandError, type Doc } from './errors.js';
import { projectDocument, type FieldProjection } from './query/field-projection.js';
import { documentBytes, projectedDocumentBytes } from './wire/cursor-reply.js';

const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 1000;
/** MongoDB's default first batch for find/aggregate when no batchSize is given. */
export const DEFAULT_FIRST_BATCH = 101;
/**
 * Like mongod, cap a batch at about 16 MB so the reply stays under maxBsonObjectSize (and the
 * bson serializer's buffer); the client simply asks for more.
 */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

/**
 * The batch starting at `start`: at most `count` docs, always ≥ 1, with their BSON (which the
 * reply is assembled from, and which bounds the batch's size).
 */
function takeBatch(
  docs: readonly Doc[],
  start: number,
  count: number,
  source: ResultSource,
): { docs: Doc[]; encoded: Uint8Array[] } {
  const { stored, projection } = source;
  const limit = Math.min(docs.length, start + count);
  const encoded: Uint8Array[] = [];
  let bytes = 0;
  let end = start;
  while (end < limit) {
    const doc = projection
      ? projectedDocumentBytes(docs[end]!, projection)
      : documentBytes(docs[end]!, stored);
    bytes += doc.length;
    if (bytes > MAX_BATCH_BYTES && end > start) break;
    encoded.push(doc);
    end += 1;
  }
  const batch = docs.slice(start, end);
  return { docs: projection ? batch.map((d) => projectDocument(d, projection)) : batch, encoded };
}

/** What a cursor's documents are, which decides how their BSON is made. */
export interface ResultSource {
  /** They are stored documents themselves (see documentBytes). */
  stored: boolean;
  /** Applied to each document as its batch is sent (only with stored documents). */
  projection?: FieldProjection | undefined;
}

const COMPUTED: ResultSource = { stored: false };

interface OpenCursor {
  ns: string;
  docs: readonly Doc[];
  source: ResultSource;
  position: number;
  lastUsed: number;
}

export interface Batch {
  /** Long 0 once the cursor is exhausted (drivers require an int64 here). */
  id: Long;
  docs: Doc[];
  /** The documents' BSON, in order. */
  encoded: Uint8Array[];
}

export class CursorRegistry {
  private readonly cursors = new Map<number, OpenCursor>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly timeoutMs = CURSOR_TIMEOUT_MS) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  /**
   * Returns the first batch; registers a cursor only if documents remain after it. `docs` must
   * not change afterwards.
   */
  open(
    ns: string,
    docs: readonly Doc[],
    batchSize: number | undefined,
    singleBatch = false,
    source = COMPUTED,
  ): Batch {
    const size = batchSize === undefined ? DEFAULT_FIRST_BATCH : batchSize;
    const first = takeBatch(docs, 0, size, source);
    if (singleBatch || first.docs.length >= docs.length) return { id: Long.ZERO, ...first };
    // Ids stay below 2^53 so they decode to exact JS numbers when the driver sends them back.
    let id: number;
    do id = randomInt(1, 2 ** 48);
    while (this.cursors.has(id));
    this.cursors.set(id, { ns, docs, source, position: first.docs.length, lastUsed: Date.now() });
    return { id: Long.fromNumber(id), ...first };
  }

  getMore(rawId: unknown, batchSize: number | undefined): Batch & { ns: string } {
    const id = Number(rawId);
    const cursor = this.cursors.get(id);
    if (!cursor) {
      throw new CommandError(43, 'CursorNotFound', `cursor id ${String(rawId)} not found`);
    }
    const batch = takeBatch(
      cursor.docs,
      cursor.position,
      batchSize || cursor.docs.length,
      cursor.source,
    );
    cursor.position += batch.docs.length;
    cursor.lastUsed = Date.now();
    if (cursor.position >= cursor.docs.length) {
      this.cursors.delete(id);
      return { id: Long.ZERO, ...batch, ns: cursor.ns };
    }
    return { id: Long.fromNumber(id), ...batch, ns: cursor.ns };
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
