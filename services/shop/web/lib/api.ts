// The shop's back-office API as the admin app calls it: web-kit's openapi-fetch client over the
// types openapi-typescript makes of the committed OpenAPI document (generated/, written by `pnpm
// api-types` before every typecheck, lint and build), and its failures in English. A path,
// parameter or field the document no longer has is a type error in the page that uses it.
import { callHelpers, createApiClient, type ApiClientOptions } from '@dogshop/web-kit';
import type { components, paths } from './generated/shop';

export type { Outcome } from '@dogshop/web-kit';

export type Schemas = components['schemas'];
export type StaffUser = Schemas['StaffUser'];
export type StaffRole = Schemas['StaffRole'];
export type OrderStatus = Schemas['OrderStatus'];

/**
 * A client of the page's own origin (relative URLs: the CSP's `connect-src 'self'` holds), every
 * read revalidated (`no-cache`), carrying the token lib/session.tsx keeps in memory.
 */
export const apiClient = (options: ApiClientOptions = {}) => createApiClient<paths>(options);

export type Api = ReturnType<typeof apiClient>;

/**
 * `failureText`: the API's own message as it comes, else one of ours naming the status (a gateway
 * answering in its own format). `outcome`: one call awaited, its data or that text.
 */
export const { failureText, outcome } = callHelpers({
  failed: (status) => `The shop did not answer the request (status ${status}). Please try again.`,
  offline: 'No connection to the shop. Check the network and try again.',
});
