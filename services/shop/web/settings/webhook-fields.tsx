// The fields of a webhook, shared by the new-webhook form and a webhook's settings: the receiver's
// address, the events sent (every event, or the ones chosen) and a description.
import type { FieldRefusal } from '@dogshop/web-kit';
import type { Schemas } from '../lib/api';
import { FieldMessage, refusedInput } from '../lib/field-messages';
import { ALL_EVENTS, EVENT_NAMES, EVENTS, type WebhookEvent } from './events';

export interface WebhookDraft {
  url: string;
  /** Every event, also those the shop adds later (`["*"]`). */
  all: boolean;
  /** The chosen events when not `all`. */
  chosen: WebhookEvent[];
  description: string;
}

export const draftOf = (webhook?: Schemas['Webhook']): WebhookDraft => ({
  url: webhook?.url ?? '',
  all: webhook ? webhook.events.includes(ALL_EVENTS) : true,
  chosen: EVENTS.filter((e) => webhook?.events.includes(e)),
  description: webhook?.description ?? '',
});

/** The events as the API takes them. */
export const eventsOf = (draft: WebhookDraft): WebhookEvent[] =>
  draft.all ? [ALL_EVENTS] : draft.chosen;

/** Checked before sending: none chosen. */
export const NO_EVENT: FieldRefusal = { field: 'events', text: 'Choose at least one event.' };

export function WebhookFields(props: {
  /** Prefix of the inputs' ids (unique on the page). */
  id: string;
  draft: WebhookDraft;
  onChange: (change: Partial<WebhookDraft>) => void;
  refusal: FieldRefusal | undefined;
}) {
  const { id, draft, refusal } = props;
  const choose = (event: WebhookEvent, on: boolean) =>
    props.onChange({
      chosen: EVENTS.filter((e) => (e === event ? on : draft.chosen.includes(e))),
    });
  return (
    <>
      <label for={`${id}-url`}>Address</label>
      <p class="hint" id={`${id}-url-hint`}>
        Where the shop sends the events: the receiver’s https:// address.
      </p>
      <input
        id={`${id}-url`}
        type="url"
        required
        maxLength={2000}
        autoComplete="off"
        spellcheck={false}
        value={draft.url}
        onInput={(event) => props.onChange({ url: event.currentTarget.value })}
        {...refusedInput(refusal, 'url', `${id}-url`, `${id}-url-hint`)}
      />
      <FieldMessage refusal={refusal} field="url" inputId={`${id}-url`} />
      <fieldset id={`${id}-events`} {...refusedInput(refusal, 'events', `${id}-events`)}>
        <legend>Events</legend>
        <label class="check">
          <input
            type="radio"
            name={`${id}-events-kind`}
            checked={draft.all}
            onChange={() => props.onChange({ all: true })}
          />
          <span>Every event, also those the shop adds later</span>
        </label>
        <label class="check">
          <input
            type="radio"
            name={`${id}-events-kind`}
            checked={!draft.all}
            onChange={() => props.onChange({ all: false })}
          />
          <span>Only the events chosen here</span>
        </label>
        {!draft.all && (
          <div class="checks indented">
            {EVENTS.map((event) => (
              <label class="check" key={event}>
                <input
                  type="checkbox"
                  checked={draft.chosen.includes(event)}
                  onChange={(e) => choose(event, e.currentTarget.checked)}
                />
                <span>
                  {EVENT_NAMES[event]} <code>{event}</code>
                </span>
              </label>
            ))}
          </div>
        )}
        <FieldMessage refusal={refusal} field="events" inputId={`${id}-events`} />
      </fieldset>
      <label for={`${id}-description`}>Description (optional)</label>
      <input
        id={`${id}-description`}
        maxLength={500}
        autoComplete="off"
        value={draft.description}
        onInput={(event) => props.onChange({ description: event.currentTarget.value })}
        {...refusedInput(refusal, 'description', `${id}-description`)}
      />
      <FieldMessage refusal={refusal} field="description" inputId={`${id}-description`} />
    </>
  );
}
