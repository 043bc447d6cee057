#!/usr/bin/env node
// Runs the development stand-in on its own (no package bin: nothing installs it as a command):
//   node dist/cli.js --port 27017 --persist ./.data/db.json
import { parseArgs } from 'node:util';
import { startMongoWireServer } from './server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '27017' },
    host: { type: 'string', default: '127.0.0.1' },
    persist: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'Usage: node dist/cli.js [--port 27017] [--host 127.0.0.1] [--persist FILE]\n' +
      'MongoDB wire-protocol stand-in for development and tests only.',
  );
  process.exit(0);
}

const server = await startMongoWireServer({
  host: values.host,
  port: Number(values.port),
  ...(values.persist ? { persistPath: values.persist } : {}),
});

const shutdown = () => {
  server.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
