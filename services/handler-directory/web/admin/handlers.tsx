// The admin app's handler section: the list (search, filters, sort, a page at a time), the
// availability switch of each row, creating, editing and deleting (after a confirmation), the
// export of what the list shows, and each handler's history. The editor and the history are URLs
// of their own below the list's (urls.ts) carrying its query: opening one is a history entry,
// Back closes it and shows the same search, a deep link opens it after signing in. A viewer gets
// the same list without any write control; the API refuses a write a viewer forces anyway.
import {
  ErrorAlert,
  Modal,
  useLocation,
  useResource,
  withQuery,
  type Resource,
} from '@dogshop/web-kit';
import { useEffect, useRef, useState } from 'preact/hooks';
import { outcome, type Handler } from '../lib/api';
import type { Session } from '../lib/session';
import { useCall } from '../lib/use-call';
import { canWrite } from './app';
import { listedNow } from './availability';
import { HandlerEditor } from './editor';
import { ExportButtons, type ListFilter } from './export-buttons';
import { HandlerTable, openerId, type RowActions } from './handler-table';
import { HandlerHistory } from './history';
import { ADMIN_BASE, handlerPath, handlerView, type HandlerView } from './urls';
import './handlers.css';

/** Handlers per page: a screenful on a desktop; "Weitere laden" asks for the next ones. */
const PAGE_SIZE = 50;
/** Waits this long after the last keystroke before searching: one request per word, not per key. */
const TYPING_PAUSE_MS = 300;

type Sort = 'name' | 'updatedAt';

interface Filters {
  q: string;
  type: string;
  available: '' | 'true' | 'false';
  sort: Sort;
}

/**
 * The filters as the list's URL holds them (`/verzeichnis/admin/?suche=Hof&verfuegbar=true`):
 * each search is a history entry, so Back returns to the previous one, and a URL opened
 * directly shows its search. The default (no filter, by name) has no query.
 */
function filtersOf(query: Record<string, string | undefined>): Filters {
  const { verfuegbar } = query;
  return {
    q: query.suche ?? '',
    type: query.typ ?? '',
    available: verfuegbar === 'true' || verfuegbar === 'false' ? verfuegbar : '',
    sort: query.sortierung === 'updatedAt' ? 'updatedAt' : 'name',
  };
}

/** `path` with the list's search as its query (a dialog's URL keeps it for the way back). */
const withFilters = (path: string, filters: Filters) =>
  withQuery(
    path,
    {
      suche: filters.q,
      typ: filters.type,
      verfuegbar: filters.available,
      sortierung: filters.sort,
    },
    { sortierung: 'name' },
  );

const listUrl = (filters: Filters) => withFilters(ADMIN_BASE, filters);

/** The filters of the address bar now (a timer's view: the component's may be older). */
const filtersNow = () => filtersOf(Object.fromEntries(new URLSearchParams(location.search)));

const sameFilters = (a: Filters, b: Filters) => listUrl(a) === listUrl(b);

/** What the address bar shows now (a timer's or an event's view: the component's may be older). */
const viewNow = () => handlerView(location.pathname);

/** The key in a dialog's history entry saying that the entry before it is the list it came from. */
const FROM_LIST = 'vonListe';

/** The id of the button "Neuer Hundeführer" (the focus returns there from the new one's editor). */
const NEW_BUTTON_ID = 'neuer-hundefuehrer';

/** The button that opened `dialog`, by id (the table is drawn anew after the editor). */
const openerOf = (dialog: HandlerView) =>
  dialog.kind === 'new'
    ? NEW_BUTTON_ID
    : dialog.kind === 'list'
      ? undefined
      : openerId(dialog.kind, dialog.id);

/** The filters as the API takes them (empty ones left out). */
function listFilter(filters: Filters): ListFilter {
  const q = filters.q.trim();
  const type = filters.type.trim();
  return {
    ...(q !== '' && { q }),
    ...(type !== '' && { type }),
    ...(filters.available !== '' && { available: filters.available === 'true' }),
  };
}

export function HandlerList({ session }: { session: Session }) {
  const { api } = session;
  const writer = canWrite(session);
  const location = useLocation();
  // The list, or the editor (which replaces it) or the history (over it).
  const view = handlerView(location.path);
  // What the URL says is what the list shows; the controls may be ahead of it while typing.
  const shown = filtersOf(location.query);
  const shownUrl = listUrl(shown);
  const applied = listFilter(shown);
  const [filters, setFilters] = useState<Filters>(shown);
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<string | undefined>();
  const [switching, setSwitching] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<Handler | undefined>();
  const listHeading = useRef<HTMLHeadingElement>(null);
  // Set when the delete dialog closes: the list's heading takes the focus then, so keyboard
  // users go on from the list (not from the start of the page).
  const focusList = useRef(false);

  const page = (cursor?: string) =>
    outcome(
      api.GET('/api/users', {
        params: {
          query: { ...applied, sort: shown.sort, limit: PAGE_SIZE, ...(cursor && { cursor }) },
        },
      }),
    );
  // Loaded for each search (not again when a dialog opens or closes: its URL keeps the query); a
  // search's answer that comes after a newer search's is dropped.
  const listing = useResource(() => page(), [shownUrl], { keep: true });

  // Back or Forward (or a link) changed the search: the controls show it.
  useEffect(() => {
    setFilters((current) => (sameFilters(current, shown) ? current : shown));
  }, [shownUrl]);

  // A changed control: its search becomes the URL (a history entry) after a pause in typing;
  // while a dialog is open (opened during the pause), once it has closed.
  const atList = view.kind === 'list';
  useEffect(() => {
    if (!atList || sameFilters(filters, filtersNow())) return;
    const timer = setTimeout(() => {
      if (viewNow().kind === 'list' && !sameFilters(filters, filtersNow())) {
        location.route(listUrl(filters));
      }
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [filters, atList]);

  // The handler a dialog's URL names: the list's row when it shows one (opened from the list: no
  // wait), else asked for (a deep link, or a handler this search does not show).
  const dialogId = view.kind === 'edit' || view.kind === 'history' ? view.id : undefined;
  const listed = listing.data?.data.find((h) => h._id === dialogId);
  const named = useResource(
    dialogId !== undefined && !listed
      ? () => outcome(api.GET('/api/users/{id}', { params: { path: { id: dialogId } } }))
      : undefined,
    [dialogId],
  );
  const fetched = named.data?.data;
  const dialogHandler = fetched?._id === dialogId ? fetched : listed;

  /** Opens the editor or the history: a history entry, its URL with the list's search. */
  function open(dialog: HandlerView) {
    location.route(withFilters(handlerPath(dialog), shown));
    // The new entry remembers that the one before it is this list: closing goes Back there.
    if (viewNow().kind !== 'list') history.replaceState({ [FROM_LIST]: true }, '');
  }

  /**
   * Closes the editor or the history from the page (Abbrechen, Schließen, Escape, saved): Back
   * to the list's entry when the dialog was opened from it, so Back afterwards does not reopen
   * it; a deep link's entry is replaced by its list.
   */
  function close() {
    // Already closed (the dialog's close event after Back): nothing left to close.
    if (viewNow().kind === 'list') return;
    if ((history.state as Record<string, unknown> | null)?.[FROM_LIST] === true) history.back();
    else location.route(listUrl(filtersNow()), true);
  }

  // Back at the list from a dialog, however closed: the focus goes to the button that opened it
  // if the list shows it (the editor replaced the table: a new button), else to the list's
  // heading; never lost to the start of the page.
  const lastView = useRef(view);
  useEffect(() => {
    const was = lastView.current;
    lastView.current = view;
    if (view.kind !== 'list' || was.kind === 'list') return;
    const opener = openerOf(was);
    (document.getElementById(opener ?? '') ?? listHeading.current)?.focus();
  }, [location.path]);

  function search() {
    if (sameFilters(filters, filtersNow())) listing.reload();
    else location.route(listUrl(filters));
  }

  function change(part: Partial<Filters>) {
    // A new search: what was said about the last action no longer belongs to the list.
    setNotice('');
    setActionError(undefined);
    setFilters((current) => ({ ...current, ...part }));
  }
  const replace = (changed: Handler) =>
    listing.mutate((list) => ({
      ...list,
      data: list.data.map((h) => (h._id === changed._id ? changed : h)),
    }));

  async function toggle(handler: Handler) {
    const available = !listedNow(handler);
    setSwitching(handler._id);
    setActionError(undefined);
    const result = await outcome(
      api.PUT('/api/users/{id}/availability', {
        params: { path: { id: handler._id } },
        body: { available },
      }),
    );
    setSwitching(undefined);
    if ('data' in result) {
      replace(result.data.data);
      setNotice(
        `${result.data.data.name} ist jetzt ${available ? 'verfügbar' : 'nicht verfügbar'}.`,
      );
    } else {
      setActionError(result.offline ? result.message : `${handler.name}: ${result.message}`);
    }
  }

  function saved(handler: Handler, created: boolean) {
    close();
    if (created) {
      setNotice(`${handler.name} ist angelegt.`);
      listing.reload();
    } else {
      setNotice(`Änderungen an ${handler.name} gespeichert.`);
      replace(handler);
    }
  }

  function deleted(handler: Handler) {
    focusList.current = true;
    setDeleting(undefined);
    setNotice(`${handler.name} ist gelöscht.`);
    listing.mutate((list) => ({
      ...list,
      data: list.data.filter((h) => h._id !== handler._id),
    }));
  }

  // After the delete dialog is gone (a modal dialog makes the rest of the page inert).
  useEffect(() => {
    if (!focusList.current || deleting) return;
    focusList.current = false;
    listHeading.current?.focus();
  }, [deleting]);

  // The editor replaces the list while open (its URL is an admin's only: app.tsx).
  if (view.kind === 'new') {
    return (
      <HandlerEditor key="neu" api={api} handler={undefined} onSaved={saved} onCancel={close} />
    );
  }
  if (view.kind === 'edit') {
    return dialogHandler ? (
      <HandlerEditor
        key={view.id}
        api={api}
        handler={dialogHandler}
        onSaved={saved}
        onCancel={close}
      />
    ) : (
      <section class="panel editor" aria-labelledby="bearbeiten-titel">
        <NotYetNamed named={named} title="Hundeführer bearbeiten" headingId="bearbeiten-titel" />
        <button type="button" class="secondary" onClick={close}>
          Zur Liste
        </button>
      </section>
    );
  }

  const actions: RowActions = {
    history: (h) => open({ kind: 'history', id: h._id }),
    ...(writer && {
      write: {
        toggle: (h) => void toggle(h),
        edit: (h) => open({ kind: 'edit', id: h._id }),
        remove: setDeleting,
        switching,
      },
    }),
  };
  const { loading } = listing;
  const handlers = listing.data?.data ?? [];
  const nextCursor = listing.data?.next_cursor;
  const status =
    loading === 'all'
      ? 'Hundeführer werden geladen …'
      : loading === 'more'
        ? 'Weitere werden geladen …'
        : `${handlers.length} Hundeführer${nextCursor ? ' angezeigt, weitere vorhanden' : ' gefunden'}.${notice ? ` ${notice}` : ''}`;

  return (
    <div class="handlers">
      <div class="handlers-head">
        <h2 id="liste-titel" tabIndex={-1} ref={listHeading}>
          Hundeführer
        </h2>
        {writer && (
          <button type="button" id={NEW_BUTTON_ID} onClick={() => open({ kind: 'new' })}>
            Neuer Hundeführer
          </button>
        )}
      </div>
      <form
        class="filters"
        role="search"
        aria-label="Hundeführer suchen und filtern"
        onSubmit={(event) => {
          event.preventDefault();
          search();
        }}
      >
        <div>
          <label for="suche">Suche (Name, Telefon, Adresse)</label>
          <input
            id="suche"
            type="search"
            autoComplete="off"
            value={filters.q}
            onInput={(event) => change({ q: event.currentTarget.value })}
          />
        </div>
        <div>
          <label for="filter-verfuegbar">Verfügbarkeit</label>
          <select
            id="filter-verfuegbar"
            value={filters.available}
            onChange={(event) =>
              change({ available: event.currentTarget.value as Filters['available'] })
            }
          >
            <option value="">alle</option>
            <option value="true">verfügbar</option>
            <option value="false">nicht verfügbar</option>
          </select>
        </div>
        <div>
          <label for="filter-typ">Typ</label>
          <input
            id="filter-typ"
            autoComplete="off"
            value={filters.type}
            onInput={(event) => change({ type: event.currentTarget.value })}
          />
        </div>
        <div>
          <label for="sortierung">Sortierung</label>
          <select
            id="sortierung"
            value={filters.sort}
            onChange={(event) => change({ sort: event.currentTarget.value as Sort })}
          >
            <option value="name">nach Name</option>
            <option value="updatedAt">letzte Änderung zuerst</option>
          </select>
        </div>
      </form>
      <p class="status" role="status">
        {status}
      </p>
      <ErrorAlert text={listing.error ?? actionError} />
      {handlers.length > 0 && (
        <div class="table-area">
          <HandlerTable handlers={handlers} actions={actions} />
        </div>
      )}
      {nextCursor && (
        <button
          type="button"
          class="secondary wide"
          disabled={loading !== undefined}
          onClick={() =>
            listing.more(
              () => page(nextCursor),
              (list, next) => ({ ...next, data: [...list.data, ...next.data] }),
            )
          }
        >
          {loading === 'more' ? 'Wird geladen …' : 'Weitere laden'}
        </button>
      )}
      <ExportButtons api={api} filter={applied} />
      {deleting && (
        <ConfirmDelete
          session={session}
          handler={deleting}
          onDeleted={deleted}
          onClose={() => setDeleting(undefined)}
        />
      )}
      {view.kind === 'history' && (
        <Modal labelledBy={dialogHandler ? `verlauf-${view.id}` : 'verlauf-titel'} onClose={close}>
          {dialogHandler ? (
            <HandlerHistory api={api} handlerId={view.id} name={dialogHandler.name} />
          ) : (
            <NotYetNamed named={named} title="Verlauf" headingId="verlauf-titel" />
          )}
          <button type="button" class="secondary" onClick={close}>
            Schließen
          </button>
        </Modal>
      )}
    </div>
  );
}

/** "Really delete?" in a modal dialog: Escape or "Abbrechen" keep the handler. */
function ConfirmDelete(props: {
  session: Session;
  handler: Handler;
  onDeleted: (handler: Handler) => void;
  onClose: () => void;
}) {
  const { handler } = props;
  const { busy, error, run } = useCall();

  async function remove() {
    if (busy) return;
    const deleted = await run(
      props.session.api.DELETE('/api/users/{id}', { params: { path: { id: handler._id } } }),
    );
    if (deleted) props.onDeleted(handler);
  }

  return (
    <Modal labelledBy="loeschen-titel" onClose={props.onClose}>
      <h2 id="loeschen-titel">{handler.name} löschen?</h2>
      <p>
        Der Eintrag wird aus dem Verzeichnis entfernt und ist im Finder nicht mehr zu finden. Das
        lässt sich nicht rückgängig machen.
      </p>
      <ErrorAlert text={error} />
      <div class="button-row">
        <button type="button" class="danger" aria-disabled={busy} onClick={() => void remove()}>
          {busy ? 'Wird gelöscht …' : 'Endgültig löschen'}
        </button>
        <button type="button" class="secondary" onClick={props.onClose} autoFocus>
          Abbrechen
        </button>
      </div>
    </Modal>
  );
}

/**
 * A dialog's URL whose handler is not there (yet): loading, no such handler (a mistyped link, or
 * one to a handler deleted since), or the failure of asking (with another try).
 */
function NotYetNamed(props: {
  named: Pick<Resource<unknown>, 'loading' | 'error' | 'failure' | 'reload'>;
  title: string;
  headingId: string;
}) {
  const { named } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by a deep link: what the page shows is read out from its heading.
  useEffect(() => heading.current?.focus(), []);
  const missing = named.failure?.status === 404;
  return (
    <>
      <h2 id={props.headingId} tabIndex={-1} ref={heading}>
        {missing ? 'Hundeführer nicht gefunden' : props.title}
      </h2>
      {missing ? (
        <p>
          Unter dieser Adresse ist kein Hundeführer verzeichnet: Der Eintrag wurde gelöscht, oder
          die Adresse ist unvollständig.
        </p>
      ) : (
        <>
          <p class="status" role="status">
            {named.loading ? 'Hundeführer wird geladen …' : ''}
          </p>
          <ErrorAlert text={named.error} />
          {named.error && (
            <button type="button" class="secondary" onClick={named.reload}>
              Erneut versuchen
            </button>
          )}
        </>
      )}
    </>
  );
}
