// One client connection: reassemble messages from the TCP stream, decode them, run the command,
// send the reply. Commands run synchronously in arrival order, so replies can never overtake
// each other on a connection.
import type { Socket } from 'node:net';
import type { Document } from 'bson';
import { runCommand } from './commands/index.js';
import type { CursorRegistry } from './cursors.js';
import type { Store } from './storage/store.js';
import { FramingError, MessageFramer, OP_MSG, OP_QUERY, readHeader } from './wire/framing.js';
import { encodeOpMsg, parseOpMsg } from './wire/op-msg.js';
import { encodeOpReply, parseOpQuery } from './wire/op-query.js';

let nextRequestId = 1;

type Encoder = (reply: Document, requestId: number, responseTo: number) => Buffer;

/** A reply that can't be serialised (e.g. a document over 16 MB) becomes an error reply. */
function encodeReply(encode: Encoder, reply: Document, requestId: number, responseTo: number) {
  try {
    return encode(reply, requestId, responseTo);
  } catch (err) {
    const errmsg = `reply could not be encoded: ${err instanceof Error ? err.message : String(err)}`;
    return encode(
      { ok: 0, errmsg, code: 10334, codeName: 'BSONObjectTooLarge' },
      requestId,
      responseTo,
    );
  }
}

export interface ConnectionDeps {
  store: Store;
  cursors: CursorRegistry;
  connectionId: number;
  log: (msg: string) => void;
}

export function handleConnection(socket: Socket, deps: ConnectionDeps): void {
  const framer = new MessageFramer();
  const remoteAddress = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? 0}`;
  socket.setNoDelay(true);

  const run = (command: Document, db: string) =>
    runCommand(command, {
      store: deps.store,
      cursors: deps.cursors,
      db,
      connectionId: deps.connectionId,
      remoteAddress,
    });

  const handleMessage = (message: Buffer): void => {
    const header = readHeader(message);
    const requestId = nextRequestId++ & 0x7fffffff;
    if (header.opCode === OP_MSG) {
      const { command, moreToCome } = parseOpMsg(message);
      const db = typeof command.$db === 'string' ? command.$db : 'admin';
      const reply = run(command, db);
      if (!moreToCome) socket.write(encodeReply(encodeOpMsg, reply, requestId, header.requestId));
    } else if (header.opCode === OP_QUERY) {
      const { database, command } = parseOpQuery(message);
      const reply = run(command, database);
      socket.write(encodeReply(encodeOpReply, reply, requestId, header.requestId));
    } else {
      // OP_COMPRESSED and the removed legacy opcodes: we never advertise them.
      throw new FramingError(`unsupported opcode ${header.opCode}`);
    }
  };

  socket.on('data', (chunk: Buffer) => {
    try {
      for (const message of framer.push(chunk)) handleMessage(message);
    } catch (err) {
      // A malformed stream can't be resynchronised; drop the connection as mongod does.
      deps.log(`mongo-wire-server: closing connection ${deps.connectionId}: ${String(err)}`);
      socket.destroy();
    }
  });
  // Clients vanish without a goodbye all the time; that is not worth a log line.
  socket.on('error', () => socket.destroy());
}
