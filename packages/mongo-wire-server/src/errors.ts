// Errors that become `{ ok: 0, errmsg, code, codeName }` replies. Codes and names are MongoDB's
// own (src/mongo/base/error_codes.yml) so that drivers and Mongoose react to them exactly as they
// would against a real server (e.g. Mongoose ignores 48 NamespaceExists on autoCreate).

export type Doc = Record<string, unknown>;

export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Doc = {},
  ) {
    super(message);
  }

  /** The fields MongoDB puts in a failed command reply or in a `writeErrors` entry. */
  toFields(): Doc {
    return { errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

export const badValue = (message: string) => new CommandError(2, 'BadValue', message);
export const typeMismatch = (message: string) => new CommandError(14, 'TypeMismatch', message);
export const namespaceNotFound = (message: string) =>
  new CommandError(26, 'NamespaceNotFound', message);
export const invalidNamespace = (message: string) =>
  new CommandError(73, 'InvalidNamespace', message);

/** Turns anything thrown while running a command into the reply fields of a MongoDB error. */
export function toErrorFields(err: unknown): Doc {
  if (err instanceof CommandError) return err.toFields();
  // mingo throws MingoError for malformed queries/updates/pipelines: a client mistake, not ours.
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && err.constructor.name === 'MingoError') {
    return badValue(message).toFields();
  }
  return { errmsg: message, code: 1, codeName: 'InternalError' };
}
