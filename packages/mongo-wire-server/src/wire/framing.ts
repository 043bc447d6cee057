// TCP delivers a byte stream, not messages: one `data` event may hold half a message or several.
// Every MongoDB wire message starts with its total length (int32 LE), so we buffer chunks until a
// whole message is present. Chunks are concatenated once per complete message, never per chunk,
// so a large message arriving in many small pieces costs O(size), not O(size²).

export const HEADER_SIZE = 16;
/** Well above the 48 MB maxMessageSizeBytes we advertise; anything larger is a broken stream. */
const MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

export interface MessageHeader {
  messageLength: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export class FramingError extends Error {}

export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  /** Adds received bytes; returns every message that is now complete (possibly none). */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: Buffer[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      const length = this.peekLength();
      if (length < HEADER_SIZE || length > MAX_MESSAGE_SIZE) {
        throw new FramingError(`invalid message length ${length}`);
      }
      if (this.buffered < length) break;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      messages.push(all.subarray(0, length));
      const rest = all.subarray(length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
    return messages;
  }

  private peekLength(): number {
    const first = this.chunks[0]!;
    if (first.length >= 4) return first.readInt32LE(0);
    // The length prefix itself was split across chunks; merge just enough to read it.
    const merged = Buffer.concat(this.chunks);
    this.chunks = [merged];
    return merged.readInt32LE(0);
  }
}

export function readHeader(message: Buffer): MessageHeader {
  return {
    messageLength: message.readInt32LE(0),
    requestId: message.readInt32LE(4),
    responseTo: message.readInt32LE(8),
    opCode: message.readInt32LE(12),
  };
}

export function writeHeader(body: Buffer, requestId: number, responseTo: number, opCode: number) {
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeInt32LE(HEADER_SIZE + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, body]);
}
