// Legacy OP_QUERY (opcode 2004) / OP_REPLY (opcode 1). Modern drivers use it for exactly one
// thing: the very first `ismaster` handshake on `admin.$cmd`, sent before they know whether the
// server speaks OP_MSG. We answer it so the handshake completes; everything after is OP_MSG.
import type { Document } from 'bson';
import { decodeDocument, encodeDocument } from './bson-options.js';
import { HEADER_SIZE, OP_REPLY, writeHeader } from './framing.js';

export interface OpQueryRequest {
  /** `db` from `db.$cmd`. */
  database: string;
  command: Document;
}

export function parseOpQuery(message: Buffer): OpQueryRequest {
  let offset = HEADER_SIZE + 4; // skip flags
  const nameEnd = message.indexOf(0, offset);
  const fullCollectionName = message.toString('utf8', offset, nameEnd);
  offset = nameEnd + 1 + 8; // skip numberToSkip, numberToReturn
  const size = message.readInt32LE(offset);
  let command = decodeDocument(message.subarray(offset, offset + size));
  // Old drivers wrapped commands with read preferences as { $query: {...}, $readPreference }.
  if (command.$query && typeof command.$query === 'object') command = command.$query as Document;
  const dot = fullCollectionName.indexOf('.');
  return { database: dot === -1 ? fullCollectionName : fullCollectionName.slice(0, dot), command };
}

export function encodeOpReply(reply: Document, requestId: number, responseTo: number): Buffer {
  const doc = encodeDocument(reply);
  const prefix = Buffer.alloc(20);
  prefix.writeInt32LE(0, 0); // responseFlags
  prefix.writeBigInt64LE(0n, 4); // cursorID
  prefix.writeInt32LE(0, 12); // startingFrom
  prefix.writeInt32LE(1, 16); // numberReturned
  return writeHeader(Buffer.concat([prefix, doc]), requestId, responseTo, OP_REPLY);
}
