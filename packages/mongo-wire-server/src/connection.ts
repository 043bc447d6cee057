// One client connection: reassemble messages from the TCP stream, decode them, run the command,
// send the reply. Messages are handled one after the other in arrival order (a command may wait
// while another session's transaction is open), so replies can never overtake each other on a
// connection.
import type { Socket } from 'node:net';
import type { Document } from 'bson';
import type { TransactionCoordinator } from './transactions.js';
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
  transactions: TransactionCoordinator;
  connectionId: number;
  log: (msg: string) => void;
}

export function handleConnection(socket: Socket, deps: ConnectionDeps): void {
  const framer = new MessageFramer();
  const remoteAddress = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? 0}`;
  socket.setNoDelay(true);

  const run = (command: Document, db: string) =>
    deps.transactions.execute(command, {
      db,
      connectionId: deps.connectionId,
      remoteAddress,
      closed: () => socket.destroyed,
    });

  const handleMessage = async (message: Buffer): Promise<void> => {
    if (socket.destroyed) return;
    const header = readHeader(message);
    const requestId = nextRequestId++ & 0x7fffffff;
    if (header.opCode === OP_MSG) {
      const { command, moreToCome } = parseOpMsg(message);
      const db = typeof command.$db === 'string' ? command.$db : 'admin';
      const reply = await run(command, db);
      if (reply && !moreToCome && !socket.destroyed) {
        socket.write(encodeReply(encodeOpMsg, reply, requestId, header.requestId));
      }
    } else if (header.opCode === OP_QUERY) {
      const { database, command } = parseOpQuery(message);
      const reply = await run(command, database);
      if (reply && !socket.destroyed) {
        socket.write(encodeReply(encodeOpReply, reply, requestId, header.requestId));
      }
    } else {
      // OP_COMPRESSED and the removed legacy opcodes: we never advertise them.
      throw new FramingError(`unsupported opcode ${header.opCode}`);
    }
  };

  // A malformed stream can't be resynchronised; drop the connection as mongod does.
  const drop = (err: unknown) => {
    deps.log(`mongo-wire-server: closing connection ${deps.connectionId}: ${String(err)}`);
    socket.destroy();
  };

  // Messages wait for the ones before them, so each connection stays strictly in order.
  let queue: Promise<void> = Promise.resolve();
  socket.on('data', (chunk: Buffer) => {
    let messages: Buffer[];
    try {
      messages = framer.push(chunk);
    } catch (err) {
      drop(err);
      return;
    }
    for (const message of messages) queue = queue.then(() => handleMessage(message)).catch(drop);
  });
  // A transaction whose client went away must not keep the server blocked.
  socket.on('close', () => deps.transactions.connectionClosed(deps.connectionId));
  // Clients vanish without a goodbye all the time; that is not worth a log line.
  socket.on('error', () => socket.destroy());
}
