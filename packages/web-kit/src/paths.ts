// The router's reading and writing of URLs: pure functions (tested in test/paths.test.ts).

/**
 * The parameters of `path` when it matches `pattern` (segments; `:name` takes one segment),
 * a trailing slash either way; undefined when it does not match.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const value = have[index]!;
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(value);
    else if (segment !== value) return undefined;
  }
  return params;
}

/**
 * `path` with `params` as its query string, empty values and those equal to `defaults` left out
 * (one URL per view: the default view has none), in a stable order.
 */
export function withQuery(
  path: string,
  params: Record<string, string>,
  defaults: Record<string, string> = {},
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params).sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== '' && value !== defaults[key]) query.set(key, value);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
