// One handler's change history, shown in the handler list's row panel (desktop and phone): when,
// who (username and role), what kind of write, and each field before and after. Newest first, a
// page at a time ("Ältere laden" follows the API's cursor).
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { ROLE_NAMES } from '../lib/pages';
import { ACTION_NAMES, fieldLabel, valueText, type FieldValue } from './change-values';
import './admin-tools.css';

type HandlerChange = Schemas['HandlerChange'];

/** Entries per page: a row panel stays short; older ones on request. */
const PAGE_SIZE = 20;

export function HandlerHistory(props: { api: Api; handlerId: string; name: string }) {
  const { api, handlerId } = props;
  const page = (cursor?: string) =>
    outcome(
      api.GET('/api/users/{id}/history', {
        params: { path: { id: handlerId }, query: { limit: PAGE_SIZE, cursor } },
      }),
    );
  // Another handler's history: the answer about the last one, if late, is dropped.
  const history = useResource(() => page(), [handlerId]);
  const entries: HandlerChange[] = history.data?.data ?? [];
  const cursor = history.data?.next_cursor;
  const loading = history.loading !== undefined;
  const { error } = history;

  const headingId = `verlauf-${handlerId}`;
  return (
    <section class="history" aria-labelledby={headingId}>
      <h3 id={headingId}>Verlauf von {props.name}</h3>
      <p class="status" role="status">
        {loading
          ? 'Verlauf wird geladen …'
          : entries.length === 0 && !error
            ? 'Noch keine Änderungen verzeichnet.'
            : ''}
      </p>
      {entries.length > 0 && (
        <ol class="history-entries">
          {entries.map((entry) => (
            <HistoryEntry key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      <ErrorAlert text={error} />
      {cursor && !loading && (
        <button
          type="button"
          class="secondary"
          onClick={() =>
            history.more(
              () => page(cursor),
              (shown, next) => ({ ...next, data: [...shown.data, ...next.data] }),
            )
          }
        >
          Ältere laden
        </button>
      )}
    </section>
  );
}

function HistoryEntry({ entry }: { entry: HandlerChange }) {
  return (
    <li class="history-entry">
      <p class="history-what">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
        {' – '}
        <strong>{ACTION_NAMES[entry.action]}</strong>
        {' von '}
        {entry.actor ? (
          <>
            <span class="history-who">{entry.actor.username}</span> ({ROLE_NAMES[entry.actor.role]})
          </>
        ) : (
          'dem Verzeichnis selbst'
        )}
      </p>
      {entry.changes.length > 0 && (
        <table class="changes">
          <thead>
            <tr>
              <th scope="col">Feld</th>
              <th scope="col">vorher</th>
              <th scope="col">nachher</th>
            </tr>
          </thead>
          <tbody>
            {entry.changes.map((change) => (
              <tr key={change.field}>
                <th scope="row">{fieldLabel(change.field)}</th>
                <td data-label="vorher">
                  <Value field={change.field} value={change.before} />
                </td>
                <td data-label="nachher">
                  <Value field={change.field} value={change.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

/** A value as text; none shown as "leer" (muted, so it is not taken for a stored word). */
function Value({ field, value }: { field: string; value: FieldValue }) {
  const text = valueText(field, value);
  return text === undefined ? <span class="empty">leer</span> : <>{text}</>;
}
