/**
 * The signed-in account, typed once for each service and seen by the shared plugins. A service
 * names its account type by augmenting this registry:
 *
 *   declare module '@dogshop/service-kit' { interface AccountRegistry { account: Customer } }
 *
 * Its auth schemes set `request.account`; inside service-kit it is an `AccountIdentity`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each service
export interface AccountRegistry {}

/** What every service's account has, for shared plugins (logs, audit lines). */
export interface AccountIdentity {
  id: string | number;
  /**
   * Raised whenever the account's earlier tokens must end (its password changed or was reset):
   * a token carries the version it was signed at (`ver`, 0 when absent) and works only while it
   * is the account's. Absent: 0.
   */
  tokenVersion?: number;
}

export type SignedInAccount = AccountRegistry extends {
  account: infer A extends AccountIdentity;
}
  ? A
  : AccountIdentity;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by an auth scheme that signs the request in; null on other routes. */
    account: SignedInAccount | null;
  }
}
