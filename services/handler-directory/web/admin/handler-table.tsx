// The handlers as a table: a row per handler on a desktop, a card per handler on a phone (the
// stylesheet turns rows into blocks there, each cell with its column's name). An admin switches
// availability in the row; every row opens the handler's history; edit and delete for an admin.
// A row's buttons are named with the handler (`Bearbeiten: <name>`): the visible word comes first.
// The editor's and the history's buttons have ids (`openerId`): the list puts the focus back on
// the one that opened a dialog when it closes, though the editor replaced the table meanwhile.
import type { Handler } from '../lib/api';
import { formatDateTime, formatPoint } from '../lib/format';
import { availabilityText, listedNow } from './availability';

export interface RowActions {
  /** Absent for a viewer: no write control is rendered. */
  write?: {
    toggle: (handler: Handler) => void;
    edit: (handler: Handler) => void;
    remove: (handler: Handler) => void;
    /** The handler whose availability is being written (its switch waits). */
    switching: string | undefined;
  };
  history: (handler: Handler) => void;
}

/** The id of the row's button that opens a handler's editor or history. */
export const openerId = (dialog: 'edit' | 'history', handlerId: string) =>
  `${dialog === 'edit' ? 'bearbeiten' : 'verlauf-oeffnen'}-${handlerId}`;

const COLUMNS = [
  'Name',
  'Telefon',
  'Typ',
  'Verfügbarkeit',
  'Position',
  'Letzte Änderung',
  'Aktionen',
] as const;

export function HandlerTable(props: { handlers: Handler[]; actions: RowActions }) {
  return (
    <table class="handler-table">
      <caption class="visually-hidden">Hundeführer</caption>
      <thead>
        <tr>
          {COLUMNS.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.handlers.map((handler) => (
          <HandlerRow key={handler._id} handler={handler} actions={props.actions} />
        ))}
      </tbody>
    </table>
  );
}

function HandlerRow({ handler, actions }: { handler: Handler; actions: RowActions }) {
  const listed = listedNow(handler);
  const { write } = actions;
  return (
    <tr>
      <th scope="row" class="handler-name">
        <span class="name">{handler.name}</span>
        {handler.address && <span class="address">{handler.address}</span>}
      </th>
      <td data-label="Telefon">{handler.phone}</td>
      <td data-label="Typ">{handler.type ?? '–'}</td>
      <td data-label="Verfügbarkeit">
        <div class="availability">
          {write && (
            // The switch's name stays "verfügbar – <name>" (its state is aria-checked); the text
            // beside it shows the state with its end.
            <button
              type="button"
              role="switch"
              class="switch"
              aria-checked={listed}
              // Not `disabled` while the write runs: that would drop the keyboard focus.
              aria-disabled={write.switching === handler._id}
              onClick={() => write.switching !== handler._id && write.toggle(handler)}
            >
              <span class="switch-track" aria-hidden="true" />
              <span class="visually-hidden">verfügbar – {handler.name}</span>
            </button>
          )}
          <span class={listed ? 'state on' : 'state'}>{availabilityText(handler)}</span>
        </div>
      </td>
      <td data-label="Position">{handler.gps ? formatPoint(handler.gps) : 'keine'}</td>
      <td data-label="Letzte Änderung">
        <time dateTime={handler.updatedAt}>{formatDateTime(handler.updatedAt)}</time>
      </td>
      <td data-label="Aktionen" class="row-actions">
        <button
          type="button"
          id={openerId('history', handler._id)}
          class="secondary"
          aria-label={`Verlauf von ${handler.name}`}
          onClick={() => actions.history(handler)}
        >
          Verlauf
        </button>
        {write && (
          <>
            <button
              type="button"
              id={openerId('edit', handler._id)}
              class="secondary"
              aria-label={`Bearbeiten: ${handler.name}`}
              onClick={() => write.edit(handler)}
            >
              Bearbeiten
            </button>
            <button
              type="button"
              class="secondary danger"
              aria-label={`Löschen: ${handler.name}`}
              onClick={() => write.remove(handler)}
            >
              Löschen
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
