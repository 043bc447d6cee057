// The admin app's handler section: the list (search, filters, sort, a page at a time), the
// availability switch of each row, creating, editing and deleting (after a confirmation), the
// export of what the list shows, and each handler's history. A viewer gets the same list without
// any write control; the API refuses a write a viewer forces anyway.
import { ErrorAlert, Modal, useLocation, useResource, withQuery } from '@dogshop/web-kit';
import { useEffect, useRef, useState } from 'preact/hooks';
import { outcome, type Handler } from '../lib/api';
import type { Session } from '../lib/session';
import { useCall } from '../lib/use-call';
import { ADMIN_BASE, canWrite } from './app';
import { listedNow } from './availability';
import { HandlerEditor } from './editor';
import { ExportButtons, type ListFilter } from './export-buttons';
import { HandlerTable, type RowActions } from './handler-table';
import { HandlerHistory } from './history';
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

const listUrl = (filters: Filters) =>
  withQuery(
    ADMIN_BASE,
    {
      suche: filters.q,
      typ: filters.type,
      verfuegbar: filters.available,
      sortierung: filters.sort,
    },
    { sortierung: 'name' },
  );

/** The filters of the address bar now (a timer's view: the component's may be older). */
const filtersNow = () => filtersOf(Object.fromEntries(new URLSearchParams(location.search)));

const sameFilters = (a: Filters, b: Filters) => listUrl(a) === listUrl(b);

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
  // What the URL says is what the list shows; the controls may be ahead of it while typing.
  const shown = filtersOf(location.query);
  const applied = listFilter(shown);
  const [filters, setFilters] = useState<Filters>(shown);
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<string | undefined>();
  const [switching, setSwitching] = useState<string | undefined>();
  // The editor replaces the list while open: undefined closed, null a new handler.
  const [editing, setEditing] = useState<Handler | null | undefined>();
  const [deleting, setDeleting] = useState<Handler | undefined>();
  const [historyOf, setHistoryOf] = useState<Handler | undefined>();
  const listHeading = useRef<HTMLHeadingElement>(null);
  // Set when the editor or the delete dialog closes: the list's heading takes the focus then, so
  // keyboard users go on from the list (not from the start of the page).
  const focusList = useRef(false);

  const page = (cursor?: string) =>
    outcome(
      api.GET('/api/users', {
        params: {
          query: { ...applied, sort: shown.sort, limit: PAGE_SIZE, ...(cursor && { cursor }) },
        },
      }),
    );
  // Loaded for each URL; a search's answer that comes after a newer search's is dropped.
  const listing = useResource(() => page(), [location.url], { keep: true });

  // Back or Forward (or a link) changed the URL: the controls show its search.
  useEffect(() => {
    setFilters((current) => (sameFilters(current, shown) ? current : shown));
  }, [location.url]);

  // A changed control: its search becomes the URL (a history entry) after a pause in typing.
  useEffect(() => {
    if (sameFilters(filters, filtersNow())) return;
    const timer = setTimeout(() => {
      if (!sameFilters(filters, filtersNow())) location.route(listUrl(filters));
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [filters]);

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
    closeEditor();
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

  function closeEditor() {
    focusList.current = true;
    setEditing(undefined);
  }

  // After the dialog or the editor is gone (a modal dialog makes the rest of the page inert).
  useEffect(() => {
    if (!focusList.current || editing !== undefined || deleting) return;
    focusList.current = false;
    listHeading.current?.focus();
  }, [editing, deleting]);

  if (editing !== undefined) {
    return (
      <HandlerEditor
        api={api}
        handler={editing ?? undefined}
        onSaved={saved}
        onCancel={closeEditor}
      />
    );
  }

  const actions: RowActions = {
    history: setHistoryOf,
    ...(writer && {
      write: { toggle: (h) => void toggle(h), edit: setEditing, remove: setDeleting, switching },
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
          <button type="button" onClick={() => setEditing(null)}>
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
      {historyOf && (
        <Modal labelledBy={`verlauf-${historyOf._id}`} onClose={() => setHistoryOf(undefined)}>
          <HandlerHistory api={api} handlerId={historyOf._id} name={historyOf.name} />
          <button type="button" class="secondary" onClick={() => setHistoryOf(undefined)}>
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
