// Deep links and a working Back button for an app of several sections. Each section is a URL
// (`/verzeichnis/admin/konten`, `/app/orders/42`); a section's filters live in its query string,
// so Back returns to the previous section or filter, and a URL opened directly (after signing
// in) shows what it names.
//
// Written here (about 0.6 kB) rather than taken from preact-iso 2.12: its router uses Preact's
// createContext, createElement and cloneElement, which no other page code uses; a bundle keeps an
// export of the shared Preact module for every page once any page uses it, so the directory's
// finder (which has no router) grew by 0.5 kB compressed over its budget of today. One page has
// one location, so there is no context here: the address bar is the state, and components that
// read it (`useLocation`) re-render when it changes.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { matchPath } from './paths';

export { matchPath, withQuery } from './paths';

/** The components reading the location: each re-renders when it changes. */
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Where the app's links are handled (`AppLocation`'s base); links elsewhere navigate as usual. */
let scope = '/';

/** Shows `url` (path and query, below the page's origin): a new history entry, or `replace` it. */
export function navigate(url: string, replace = false): void {
  if (url === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  changed();
}

/** A click on a link of the app: shown here, without loading the page again. */
function onClick(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const target = event.target instanceof Element ? event.target : null;
  const link = target?.closest('a');
  const href = link?.getAttribute('href');
  if (!link || !href || href.startsWith('#') || link.hasAttribute('download')) return;
  if (link.origin !== location.origin || (link.target !== '' && link.target !== '_self')) return;
  if (!link.pathname.startsWith(scope)) return;
  event.preventDefault();
  navigate(link.pathname + link.search);
}

/**
 * The app's routing for everything below `base` (`/verzeichnis/admin/`): clicks on links within
 * it are handled here (a history entry each), Back and Forward show their entry.
 */
export function AppLocation({ base, children }: { base: string; children: ComponentChildren }) {
  scope = base;
  useEffect(() => {
    addEventListener('click', onClick);
    addEventListener('popstate', changed);
    return () => {
      removeEventListener('click', onClick);
      removeEventListener('popstate', changed);
    };
  }, []);
  return <>{children}</>;
}

export interface AppLocationState {
  /** Path and query (`/verzeichnis/admin/?suche=Hof`). */
  url: string;
  path: string;
  query: Record<string, string>;
  /** Shows `url`: a new history entry, or `replace` the current one. */
  route: (url: string, replace?: boolean) => void;
}

/** The address bar now; the component re-renders when it changes. */
export function useLocation(): AppLocationState {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((version) => version + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return {
    url: location.pathname + location.search,
    path: location.pathname,
    query: Object.fromEntries(new URLSearchParams(location.search)),
    route: navigate,
  };
}

export interface RouteOf {
  /** `/verzeichnis/admin/konten`, `/app/orders/:id` */
  path: string;
  render: (params: Record<string, string>) => ComponentChildren;
}

/** The first route whose path matches the address bar's, else `fallback` (no such section). */
export function Routes({
  routes,
  fallback,
}: {
  routes: readonly RouteOf[];
  fallback: () => ComponentChildren;
}) {
  const { path } = useLocation();
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (params) return <>{route.render(params)}</>;
  }
  return <>{fallback()}</>;
}

/**
 * A link to a section: marked `aria-current="page"` while its section is shown, at its own path
 * or one of `also` (the section's pages: `/app/orders/:id` for the orders).
 */
export function SectionLink(props: {
  href: string;
  also?: readonly string[];
  children: ComponentChildren;
}) {
  const { path } = useLocation();
  const current = [props.href, ...(props.also ?? [])].some(
    (pattern) => matchPath(pattern, path) !== undefined,
  );
  return (
    <a href={props.href} aria-current={current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
