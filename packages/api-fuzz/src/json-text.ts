// Generated values as JSON text: some are not representable as JavaScript values (1e400, -0) or
// carry own `__proto__` keys, so they are written by hand rather than with JSON.stringify.

/** A JSON token written as is (numbers JSON can carry but JavaScript cannot: 1e400, -0, 1E2). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a generated value: RawJson tokens verbatim, own `__proto__` keys kept. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .map((k) => `${JSON.stringify(k)}:${toJsonText(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Sets a key as an own, enumerable property, even `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(copy, key, clone((value as never)[key]));
    return copy as T;
  }
  return value;
}
