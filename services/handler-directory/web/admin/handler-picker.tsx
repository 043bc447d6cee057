// Choosing the handler record a `handler` account is bound to: a search over the handler list
// (GET /api/users?q=, name, phone or address) with the matches as radio buttons.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { outcome, type Api, type Handler } from '../lib/api';

export interface ChosenHandler {
  id: string;
  name: string;
}

/** Matches shown: enough to find one by a few letters of the name. */
const MATCHES = 10;
/** Waits this long after the last keystroke before searching: one request per word, not per key. */
const TYPING_PAUSE_MS = 300;

export function HandlerPicker(props: {
  api: Api;
  /** Unique per form on the page: the ids of its controls. */
  idPrefix: string;
  chosen: ChosenHandler | undefined;
  onChoose: (handler: ChosenHandler) => void;
}) {
  const [query, setQuery] = useState('');
  const text = query.trim();
  // A newer query replaces this one: its answer, if late, is dropped.
  const search = useResource(
    text === ''
      ? undefined
      : () =>
          outcome(props.api.GET('/api/users', { params: { query: { q: text, limit: MATCHES } } })),
    [text],
    { delayMs: TYPING_PAUSE_MS, keep: true },
  );
  const { error } = search;
  // The directory answered without matches; a lost connection leaves the last ones.
  const matches = search.failure && !search.failure.offline ? undefined : search.data?.data;

  const { idPrefix: id } = props;
  return (
    <div class="handler-picker">
      <label for={`${id}-suche`}>Eintrag suchen (Name, Telefon oder Adresse)</label>
      <input
        id={`${id}-suche`}
        type="search"
        autoComplete="off"
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
        // Enter searches (it already does while typing); it must not submit the account form.
        onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
      />
      <p class="status" role="status">
        {matchesText(matches)}
      </p>
      <ErrorAlert text={error} />
      {matches && matches.length > 0 && (
        <fieldset class="choices">
          <legend>Eintrag wählen</legend>
          {matches.map((handler) => (
            <label key={handler._id} class="choice">
              <input
                type="radio"
                name={`${id}-eintrag`}
                value={handler._id}
                checked={props.chosen?.id === handler._id}
                onChange={() => props.onChoose({ id: handler._id, name: handler.name })}
              />
              <span>
                {handler.name} <span class="hint">{handler.phone}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <p class="chosen">
        Gewählt: {props.chosen ? <strong>{props.chosen.name}</strong> : 'noch kein Eintrag'}
      </p>
    </div>
  );
}

function matchesText(matches: Handler[] | undefined): string {
  if (!matches) return '';
  if (matches.length === 0) return 'Kein Eintrag gefunden.';
  return `${matches.length} ${matches.length === 1 ? 'Eintrag' : 'Einträge'} gefunden.`;
}
