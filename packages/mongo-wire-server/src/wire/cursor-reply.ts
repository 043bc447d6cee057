// Cursor batches are nearly all the bytes the stand-in sends. Stored documents never change in
// place (updates replace them), so each one is serialised once and its bytes are reused by every
// later batch that returns it; a reply is then assembled from those bytes instead of serialising
// the whole batch again. The envelope is the one the driver expects,
// `{ cursor: { firstBatch | nextBatch: [...], id, ns }, ok: 1 }`, byte for byte what
// `serialize` would give for it (see test/cursor-reply.test.ts).
import { serialize, type Document, type Long } from 'bson';
import { CommandError, type Doc } from '../errors.js';
import { projectBytes, type FieldProjection } from '../query/field-projection.js';

const SERIALIZE_OPTIONS = { ignoreUndefined: true, checkKeys: false } as const;

const storedBytes = new WeakMap<Doc, Uint8Array>();
/** Per stored document: its bytes under each field projection it was read with. */
const projectedBytes = new WeakMap<Doc, Map<string, Uint8Array>>();
const preEncoded = new WeakMap<Document, Buffer>();

/**
 * A document's BSON. `stored` says the object is a stored document (not a projection or an
 * aggregation result made for this query), whose bytes are worth keeping for the next query.
 */
export function documentBytes(doc: Doc, stored: boolean): Uint8Array {
  const cached = stored ? storedBytes.get(doc) : undefined;
  if (cached) return cached;
  let bytes: Uint8Array;
  try {
    bytes = serialize(doc, SERIALIZE_OPTIONS);
  } catch (err) {
    const errmsg = `reply could not be encoded: ${err instanceof Error ? err.message : String(err)}`;
    throw new CommandError(10334, 'BSONObjectTooLarge', errmsg);
  }
  if (stored) storedBytes.set(doc, bytes);
  return bytes;
}

/** A stored document's BSON under a field projection, kept like its whole BSON. */
export function projectedDocumentBytes(doc: Doc, projection: FieldProjection): Uint8Array {
  let byProjection = projectedBytes.get(doc);
  const cached = byProjection?.get(projection.key);
  if (cached) return cached;
  const bytes = projectBytes(documentBytes(doc, true), projection);
  if (!byProjection) projectedBytes.set(doc, (byProjection = new Map<string, Uint8Array>()));
  byProjection.set(projection.key, bytes);
  return bytes;
}

/** The encoding of `reply` made ahead of time; encodeDocument sends it instead of serialising. */
export function preEncodedBytes(reply: Document): Buffer | undefined {
  return preEncoded.get(reply);
}

const TYPE_INT32 = 0x10;
const TYPE_INT64 = 0x12;
const TYPE_STRING = 0x02;
const TYPE_DOCUMENT = 0x03;
const TYPE_ARRAY = 0x04;

/**
 * `{ cursor: { [field]: docs, id, ns }, ok: 1 }` with `docs` given as their BSON (`encoded`).
 * The returned object is the reply itself, so anything reading it sees the documents; only its
 * encoding is taken from `encoded`.
 */
export function batchReply(
  field: 'firstBatch' | 'nextBatch',
  docs: Doc[],
  encoded: Uint8Array[],
  id: Long,
  ns: string,
): Doc {
  const reply = { cursor: { [field]: docs, id, ns }, ok: 1 };
  preEncoded.set(reply, encodeCursorReply(field, encoded, id, ns));
  return reply;
}

function encodeCursorReply(field: string, encoded: Uint8Array[], id: Long, ns: string): Buffer {
  // An array is a document whose keys are "0", "1", ...
  let arraySize = 4 + 1;
  for (let i = 0; i < encoded.length; i += 1) {
    arraySize += 1 + String(i).length + 1 + encoded[i]!.length;
  }
  const nsBytes = Buffer.byteLength(ns, 'utf8');
  const cursorSize =
    4 + (1 + field.length + 1 + arraySize) + (1 + 3 + 8) + (1 + 3 + 4 + nsBytes + 1) + 1;
  const total = 4 + (1 + 'cursor'.length + 1 + cursorSize) + (1 + 3 + 4) + 1;

  const out = Buffer.allocUnsafe(total);
  let at = out.writeInt32LE(total, 0);
  const cstring = (text: string) => {
    at += out.write(text, at, 'utf8');
    at = out.writeUInt8(0, at);
  };
  at = out.writeUInt8(TYPE_DOCUMENT, at);
  cstring('cursor');
  at = out.writeInt32LE(cursorSize, at);
  at = out.writeUInt8(TYPE_ARRAY, at);
  cstring(field);
  at = out.writeInt32LE(arraySize, at);
  for (let i = 0; i < encoded.length; i += 1) {
    at = out.writeUInt8(TYPE_DOCUMENT, at);
    cstring(String(i));
    out.set(encoded[i]!, at);
    at += encoded[i]!.length;
  }
  at = out.writeUInt8(0, at); // end of the array
  at = out.writeUInt8(TYPE_INT64, at);
  cstring('id');
  at = out.writeInt32LE(id.low, at);
  at = out.writeInt32LE(id.high, at);
  at = out.writeUInt8(TYPE_STRING, at);
  cstring('ns');
  at = out.writeInt32LE(nsBytes + 1, at);
  cstring(ns);
  at = out.writeUInt8(0, at); // end of `cursor`
  at = out.writeUInt8(TYPE_INT32, at);
  cstring('ok');
  at = out.writeInt32LE(1, at);
  out.writeUInt8(0, at);
  return out;
}
