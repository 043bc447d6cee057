export {
  startMongoWireServer,
  type MongoWireServer,
  type MongoWireServerOptions,
} from './server.js';
export { supportedCommands } from './commands/index.js';
