// The admin app's URLs, in a module of their own: app.tsx and the sections both read them, and a
// constant read while its module is still being evaluated (app.tsx imports the sections, which
// import it back) would be undefined.
import { matchPath } from '@dogshop/web-kit';

/** The admin app's URL: its first section, the handlers; everything else below it. */
export const ADMIN_BASE = '/verzeichnis/admin/';

/**
 * A handler's editor and history: dialogs of the list, each a URL of its own (a deep link, and
 * Back closes them). They carry the list's query, so closing returns to the same search.
 */
export const HANDLER_PAGES = {
  new: `${ADMIN_BASE}hundefuehrer/neu`,
  edit: `${ADMIN_BASE}hundefuehrer/:id`,
  history: `${ADMIN_BASE}hundefuehrer/:id/verlauf`,
} as const;

/** What the handler section shows at `path`: the list alone, or one of its dialogs over it. */
export type HandlerView =
  | { kind: 'list' }
  | { kind: 'new' }
  | { kind: 'edit'; id: string }
  | { kind: 'history'; id: string };

export function handlerView(path: string): HandlerView {
  // `neu` before `:id`: both are one segment below `hundefuehrer/`.
  if (matchPath(HANDLER_PAGES.new, path)) return { kind: 'new' };
  const edit = matchPath(HANDLER_PAGES.edit, path);
  if (edit) return { kind: 'edit', id: edit.id! };
  const history = matchPath(HANDLER_PAGES.history, path);
  if (history) return { kind: 'history', id: history.id! };
  return { kind: 'list' };
}

/** The path of `view` (the list's query is added by the caller). */
export function handlerPath(view: HandlerView): string {
  switch (view.kind) {
    case 'list':
      return ADMIN_BASE;
    case 'new':
      return HANDLER_PAGES.new;
    case 'edit':
      return `${ADMIN_BASE}hundefuehrer/${encodeURIComponent(view.id)}`;
    case 'history':
      return `${ADMIN_BASE}hundefuehrer/${encodeURIComponent(view.id)}/verlauf`;
  }
}
