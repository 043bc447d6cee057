// Features of the stand-in itself, so these tests always start their own instance (whatever
// MONGODB_URI says): file persistence, TCP framing of raw wire messages, and the start-up notice.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deserialize, serialize, type Document } from 'bson';
import { Decimal128, MongoClient, MongoServerError, ObjectId } from 'mongodb';
import { startMongoWireServer, type MongoWireServer } from '../src/index.js';

const quiet = () => {};

describe('stand-in persistence', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mongo-wire-server-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('restores documents, exact BSON types and unique indexes after a restart', async () => {
    const persistPath = join(dir, 'restart', 'data.json');
    const id = new ObjectId();
    const when = new Date('2023-05-06T07:08:09.123Z');

    const first = await startMongoWireServer({ persistPath, log: quiet });
    const client1 = await MongoClient.connect(first.uri);
    const coll1 = client1.db('shop').collection('products');
    await coll1.createIndex({ sku: 1 }, { unique: true });
    await coll1.insertOne({
      _id: id,
      sku: 'A-1',
      when,
      price: Decimal128.fromString('12.50'),
      ratio: 1.5,
      nested: { list: [1, 2, { x: 'ü' }] },
    });
    await client1.close();
    await first.close();

    const second = await startMongoWireServer({ persistPath, log: quiet });
    const client2 = await MongoClient.connect(second.uri);
    const coll2 = client2.db('shop').collection('products');
    const doc = await coll2.findOne({ _id: id });
    expect(doc?._id).toBeInstanceOf(ObjectId);
    expect(doc?._id.toHexString()).toBe(id.toHexString());
    expect(doc?.when).toBeInstanceOf(Date);
    expect((doc?.when as Date).getTime()).toBe(when.getTime());
    expect(doc?.price).toBeInstanceOf(Decimal128);
    expect(String(doc?.price)).toBe('12.50');
    expect(doc?.ratio).toBe(1.5);
    expect(doc?.nested).toEqual({ list: [1, 2, { x: 'ü' }] });
    const err = await coll2.insertOne({ sku: 'A-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(11000);
    await client2.close();
    await second.close();
  });

  it('saves shortly after a write without waiting for close, leaving no temp files', async () => {
    const persistPath = join(dir, 'debounce.json');
    const server = await startMongoWireServer({ persistPath, log: quiet });
    const client = await MongoClient.connect(server.uri);
    await client.db('d').collection('c').insertOne({ marker: 'saved-early' });
    let text = '';
    for (let i = 0; i < 40 && !text.includes('saved-early'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = await readFile(persistPath, 'utf8').catch(() => '');
    }
    expect(text).toContain('saved-early');
    await client.close();
    await server.close();
    expect((await readdir(dir)).filter((f) => f.includes('.tmp'))).toEqual([]);
  });
});

// ---- raw wire protocol ----

const OP_QUERY = 2004;
const OP_MSG = 2013;

function header(length: number, requestId: number, opCode: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32LE(length, 0);
  b.writeInt32LE(requestId, 4);
  b.writeInt32LE(0, 8);
  b.writeInt32LE(opCode, 12);
  return b;
}

function opQuery(requestId: number, ns: string, command: Document): Buffer {
  const body = Buffer.concat([
    Buffer.alloc(4), // flags
    Buffer.from(`${ns}\0`),
    Buffer.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), // numberToSkip 0, numberToReturn -1
    Buffer.from(serialize(command)),
  ]);
  return Buffer.concat([header(16 + body.length, requestId, OP_QUERY), body]);
}

function opMsg(
  requestId: number,
  command: Document,
  opts: { flags?: number; sequence?: [string, Document[]]; checksum?: boolean } = {},
): Buffer {
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE((opts.flags ?? 0) | (opts.checksum ? 1 : 0), 0);
  const parts = [flags, Buffer.from([0]), Buffer.from(serialize(command))];
  if (opts.sequence) {
    const [name, docs] = opts.sequence;
    const payload = Buffer.concat([
      Buffer.from(`${name}\0`),
      ...docs.map((d) => Buffer.from(serialize(d))),
    ]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + payload.length, 0);
    parts.push(Buffer.from([1]), size, payload);
  }
  // The CRC-32C value itself is irrelevant to the server, which skips it.
  if (opts.checksum) parts.push(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
  const body = Buffer.concat(parts);
  return Buffer.concat([header(16 + body.length, requestId, OP_MSG), body]);
}

interface Reply {
  responseTo: number;
  opCode: number;
  doc: Document;
}

/** Collects complete replies from a raw socket, independent of the server's own framing code. */
function replyReader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  const replies: Reply[] = [];
  let waiter: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
      const msg = buffered.subarray(0, buffered.readInt32LE(0));
      buffered = buffered.subarray(msg.length);
      const opCode = msg.readInt32LE(12);
      // OP_REPLY: 20 bytes of reply fields; OP_MSG: 4 flag bytes + 1 section-kind byte.
      const docStart = opCode === 1 ? 36 : 21;
      replies.push({
        responseTo: msg.readInt32LE(8),
        opCode,
        doc: deserialize(msg.subarray(docStart)),
      });
      waiter?.();
    }
  });
  return async (count: number): Promise<Reply[]> => {
    const deadline = Date.now() + 5000;
    while (replies.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiter = resolve;
        setTimeout(resolve, 100);
      });
    }
    return replies.splice(0, count);
  };
}

describe('stand-in wire protocol', () => {
  let server: MongoWireServer;
  let socket: Socket;
  let nextReplies: (count: number) => Promise<Reply[]>;

  beforeAll(async () => {
    server = await startMongoWireServer({ log: quiet });
    socket = connect(server.port, '127.0.0.1');
    socket.setNoDelay(true); // so one-byte writes really travel as separate segments
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    nextReplies = replyReader(socket);
  });

  afterAll(async () => {
    socket.destroy();
    await server.close();
  });

  it('answers a legacy OP_QUERY isMaster sent one byte at a time with an OP_REPLY', async () => {
    const message = opQuery(7, 'admin.$cmd', { isMaster: 1, helloOk: true });
    for (const byte of message) {
      socket.write(Buffer.from([byte]));
      await new Promise((r) => setImmediate(r));
    }
    const [reply] = await nextReplies(1);
    expect(reply?.opCode).toBe(1);
    expect(reply?.responseTo).toBe(7);
    expect(reply?.doc).toMatchObject({ ismaster: true, helloOk: true, maxWireVersion: 21, ok: 1 });
  });

  it('answers several OP_MSG commands that arrive in a single chunk, in order', async () => {
    socket.write(
      Buffer.concat([
        opMsg(11, { ping: 1, $db: 'admin' }),
        opMsg(12, { hello: 1, $db: 'admin' }),
        opMsg(13, { buildInfo: 1, $db: 'admin' }),
      ]),
    );
    const replies = await nextReplies(3);
    expect(replies.map((r) => r.responseTo)).toEqual([11, 12, 13]);
    expect(replies.every((r) => r.opCode === OP_MSG && r.doc.ok === 1)).toBe(true);
    expect(replies[1]?.doc.isWritablePrimary).toBe(true);
  });

  it('merges kind-1 document sequences into the command', async () => {
    socket.write(
      opMsg(21, { insert: 'seq', $db: 'wire' }, { sequence: ['documents', [{ a: 1 }, { a: 2 }]] }),
    );
    const [inserted] = await nextReplies(1);
    expect(inserted?.doc).toMatchObject({ n: 2, ok: 1 });
    socket.write(opMsg(22, { count: 'seq', $db: 'wire' }));
    const [counted] = await nextReplies(1);
    expect(counted?.doc).toMatchObject({ n: 2, ok: 1 });
  });

  it('accepts a message carrying a checksum', async () => {
    socket.write(opMsg(41, { ping: 1, $db: 'admin' }, { checksum: true }));
    const [reply] = await nextReplies(1);
    expect(reply?.responseTo).toBe(41);
    expect(reply?.doc).toMatchObject({ ok: 1 });
  });

  it('sends no reply for moreToCome (unacknowledged) messages but still executes them', async () => {
    const MORE_TO_COME = 2;
    socket.write(
      opMsg(31, { insert: 'quiet', documents: [{ q: 1 }], $db: 'wire' }, { flags: MORE_TO_COME }),
    );
    socket.write(opMsg(32, { count: 'quiet', $db: 'wire' }));
    const [reply] = await nextReplies(1);
    expect(reply?.responseTo).toBe(32);
    expect(reply?.doc).toMatchObject({ n: 1, ok: 1 });
  });
});

describe('stand-in start-up notice', () => {
  it('logs one line saying it is for development and tests, not production', async () => {
    const lines: string[] = [];
    const server = await startMongoWireServer({ log: (m) => lines.push(m) });
    await server.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(server.uri);
    expect(lines[0]).toMatch(/development and tests only/);
    expect(lines[0]).toMatch(/NOT for production/);
  });
});
