export {
  ConfigError,
  commonConfig,
  commonEnv,
  loadConfig,
  parseOrigins,
  seedDemoDefault,
  type CommonConfig,
} from './config.js';
export { resolveJwtSecret, resolveKeptSecret } from './dev-secret.js';
export { apiDocs, type DocsOptions } from './docs.js';
export { errorEnvelope, type ErrorEnvelopeOptions } from './error-envelope.js';
export { healthRoutes, type HealthOptions } from './health.js';
export {
  HTTP_DURATION_BUCKETS,
  UNMATCHED_ROUTE,
  prometheusMetrics,
  type Metrics,
  type MetricsOptions,
  type PoolStats,
} from './metrics.js';
export { loadShedding, type LoadSheddingOptions } from './pressure.js';
export {
  LoginLimiter,
  loginUnavailable,
  tooManyLoginFailures,
  type LoginAttempt,
  type LoginLimiterOptions,
  type LoginLimits,
} from './login-limiter.js';
export {
  openSharedState,
  type Invalidation,
  type InvalidationCause,
  type SharedState,
  type SharedStateLog,
  type SharedStateOptions,
} from './shared-state.js';
export { PRIVATE_NO_STORE, privateNoStore } from './no-store.js';
export { pagesContentSecurityPolicy, servePages, type PagesOptions } from './pages.js';
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
export {
  SET_PASSWORD_TOKEN_TTL_MS,
  hashOneTimeToken,
  newOneTimeToken,
  type OneTimeToken,
  type StoredOneTimeToken,
} from './one-time-token.js';
export { csvStream, neutraliseFormula, type CsvDelimiter } from './csv-export.js';
export {
  csvDelimiter,
  readCsvRecords,
  withoutFormulaGuard,
  type CsvReadMessages,
} from './csv-import.js';
export { runServer } from './run-server.js';
export { securityDefaults, type SecurityOptions } from './security.js';
export { serverOptions } from './server-options.js';
export { loggerOptions, REDACTED_PATHS, requestLog } from './request-log.js';
export {
  startTracing,
  traceIdsOfActiveSpan,
  type ReadableSpan,
  type Tracing,
  type TracingOptions,
} from './tracing.js';
export {
  PLAIN_DECIMAL,
  PLAIN_DECIMAL_KEYWORD,
  useStrictValidation,
  withPlainDecimals,
} from './validation.js';
export { clientErrorHandler, type ClientErrorOptions } from './client-errors.js';
export { isSocketError } from './socket-errors.js';
export { germanValidation, type GermanRuleTexts } from './localize.js';
export { rejectNul, type RejectNulOptions } from './reject-nul.js';
export {
  StartupError,
  assertPortFree,
  describePortOwner,
  describeProcess,
  exitOnStartupFailure,
  portInUse,
  waitUntilReachable,
  withoutCredentials,
} from './startup.js';
export { acquireDataDirLock, type LockInfo, type LockResult } from './data-dir-lock.js';
export {
  bearerTokens,
  signedInAccountCheck,
  type BearerClaims,
  type BearerTokenOptions,
} from './bearer-tokens.js';
export {
  routeAuth,
  type AuthScheme,
  type DeclaredRoute,
  type RouteAuthOptions,
} from './route-auth.js';
export {
  CACHE_CONTROL,
  GATEWAY_REVALIDATE_ALWAYS,
  httpCache,
  ifNoneMatchMatches,
  strongEtag,
  type CachePolicy,
} from './http-cache.js';
export { KeptCopy, type KeptCopyOptions } from './kept-copy.js';
export { normalizeInput, type InputNormalization } from './normalize-input.js';
export { named } from './plugin-name.js';
export {
  openEmbeddedDatabase,
  type OpenedDatabase,
  type StartedDatabase,
} from './embedded-database.js';
export { type AccountIdentity, type AccountRegistry, type SignedInAccount } from './account.js';
export {
  buildService,
  type DatabaseHealth,
  type RuntimeOptions,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceMessages,
  type ServicePlugin,
} from './service.js';
export {
  startService,
  type OpenedService,
  type ServiceModules,
  type StartServiceOptions,
} from './start-service.js';
