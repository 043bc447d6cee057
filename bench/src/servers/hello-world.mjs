/* global process */
// B1's floor: Fastify with nothing registered, answering a hello world. Plain JavaScript, run by
// plain `node`, so nothing but Fastify itself stands between the socket and the handler.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
