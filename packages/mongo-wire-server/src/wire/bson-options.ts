import { deserialize, serialize, type Document } from 'bson';
import { preEncodedBytes } from './cursor-reply.js';

// Decode the way the Node driver does by default: plain numbers for int32/double (and int64 when
// it fits), RegExp for regexes (mingo needs them), but Binary/ObjectId/Decimal128/Date kept as
// their BSON classes so stored documents round-trip byte-for-byte in type.
const DESERIALIZE_OPTIONS = {
  promoteLongs: true,
  promoteValues: true,
  promoteBuffers: false,
  bsonRegExp: false,
} as const;

export function decodeDocument(buffer: Buffer): Document {
  return deserialize(buffer, DESERIALIZE_OPTIONS);
}

export function encodeDocument(doc: Document): Buffer {
  const ready = preEncodedBytes(doc);
  if (ready) return ready;
  // `undefined` means "absent" in our replies (e.g. no writeErrors), as in MongoDB's.
  const bytes = serialize(doc, { ignoreUndefined: true, checkKeys: false });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
