// One HTTP request of the soak, with a deadline: a status and parsed JSON, or the network error
// ('timeout' when the deadline passed), never a throw.

export interface CallResult {
  status?: number;
  error?: string;
  mismatch?: string;
  json?: Record<string, unknown>;
  headers?: Headers;
}

/** A client waits this long for an answer; longer counts as a hang. */
export const REQUEST_TIMEOUT_MS = 10_000;

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<CallResult> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...opts.headers,
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, headers: res.headers };
  } catch (error) {
    return { error: networkError(error) };
  }
}

function networkError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  if (e.name === 'TimeoutError') return 'timeout';
  return e.cause?.code ?? e.cause?.name ?? e.name ?? 'error';
}
