// The web foundation of both services' pages (issue 30): what the directory's pages and the
// shop's admin app share. No text of its own: each service passes its texts (German for the
// directory, English for the shop). The Chromium test helpers are `@dogshop/web-kit/testing`.
export {
  apiMessage,
  callHelpers,
  createApiClient,
  type ApiClientOptions,
  type Call,
  type CallTexts,
  type Outcome,
  type OutcomeOf,
} from './api';
export { downloadName, saveDownload } from './download';
export { useDownload, type DownloadTexts } from './use-download';
export { ErrorAlert } from './error-alert';
export { Modal } from './modal';
export { ShownOnce, type ShownOnceTexts } from './shown-once';
export {
  FieldMessage,
  fieldMessageId,
  refusedInput,
  type FieldRefusal,
  type FieldRefusalOf,
} from './field-message';
export {
  AppLocation,
  matchPath,
  navigate,
  Routes,
  SectionLink,
  useLocation,
  withQuery,
  type AppLocationState,
  type RouteOf,
} from './router';
export {
  createSession,
  type AuthCalls,
  type Session,
  type SessionConfig,
  type SessionTexts,
  type SignedInAccount,
} from './session';
export { useCall } from './use-call';
export { useLatest } from './use-latest';
export { useResource, type Resource, type ResourceOptions } from './use-resource';
