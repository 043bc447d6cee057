// OP_MSG (opcode 2013), the only message format drivers use after the first handshake:
//   flagBits uint32 | sections... | optional CRC-32C checksum
// Section kind 0 is the command body; kind 1 is a "document sequence" (identifier + documents)
// that drivers use to ship bulk payloads like `documents`/`updates`/`deletes` outside the body.
import type { Document } from 'bson';
import { decodeDocument, encodeDocument } from './bson-options.js';
import { FramingError, HEADER_SIZE, OP_MSG, writeHeader } from './framing.js';

const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;

export interface OpMsgRequest {
  command: Document;
  /** Client asked for no reply (unacknowledged write, w:0). */
  moreToCome: boolean;
}

export function parseOpMsg(message: Buffer): OpMsgRequest {
  const flags = message.readUInt32LE(HEADER_SIZE);
  // The checksum is optional and only guards against corruption TCP already detects; skip it.
  const end = message.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let offset = HEADER_SIZE + 4;
  let command: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];

  while (offset < end) {
    const kind = message.readUInt8(offset);
    offset += 1;
    const size = message.readInt32LE(offset);
    if (kind === 0) {
      command = decodeDocument(message.subarray(offset, offset + size));
      offset += size;
    } else if (kind === 1) {
      const sectionEnd = offset + size;
      const nameEnd = message.indexOf(0, offset + 4);
      const identifier = message.toString('utf8', offset + 4, nameEnd);
      const docs: Document[] = [];
      let pos = nameEnd + 1;
      while (pos < sectionEnd) {
        const docSize = message.readInt32LE(pos);
        docs.push(decodeDocument(message.subarray(pos, pos + docSize)));
        pos += docSize;
      }
      sequences.push([identifier, docs]);
      offset = sectionEnd;
    } else {
      throw new FramingError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!command) throw new FramingError('OP_MSG without a body section');
  // A document sequence is semantically the array field of the same name in the body.
  for (const [identifier, docs] of sequences) {
    const existing: unknown = command[identifier];
    command[identifier] = Array.isArray(existing) ? [...(existing as unknown[]), ...docs] : docs;
  }
  return { command, moreToCome: (flags & MORE_TO_COME) !== 0 };
}

export function encodeOpMsg(reply: Document, requestId: number, responseTo: number): Buffer {
  const body = encodeDocument(reply);
  const prefix = Buffer.alloc(5); // flagBits = 0, then section kind 0
  return writeHeader(Buffer.concat([prefix, body]), requestId, responseTo, OP_MSG);
}
