export { ConfigError, commonEnv, loadConfig, parseOrigins } from './config.js';
export { resolveJwtSecret } from './dev-secret.js';
export { apiDocs, type DocsOptions } from './docs.js';
export { errorEnvelope, type ErrorEnvelopeOptions } from './error-envelope.js';
export { healthRoutes, type HealthOptions } from './health.js';
export {
  HttpError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
} from './http-error.js';
export {
  hashPassword,
  setPasswordThreadNiceness,
  verifyAgainstDummy,
  verifyPassword,
} from './passwords.js';
export { runServer } from './run-server.js';
export { securityDefaults, type SecurityOptions } from './security.js';
export { REDACTED_PATHS, serverOptions } from './server-options.js';
export { useStrictValidation } from './validation.js';
