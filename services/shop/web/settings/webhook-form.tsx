// The webhook forms: a new subscription (the API answers with its signing secret, shown once by
// the list), and a subscription's settings changed (address, events, description, enabled). A
// target the shop refuses (not https, not a public address) is the API's message.
import { ErrorAlert, useCall } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { outcome, type Api, type Schemas } from '../lib/api';
import { fieldRefusal } from '../lib/field-messages';
import { draftOf, eventsOf, NO_EVENT, WebhookFields, type WebhookDraft } from './webhook-fields';

type Webhook = Schemas['Webhook'];

/** The draft and its refusal (the API's, or "no event" found before sending). */
function useDraft(webhook?: Webhook) {
  const [draft, setDraft] = useState<WebhookDraft>(() => draftOf(webhook));
  const [noEvent, setNoEvent] = useState(false);
  const call = useCall();
  const refusal = noEvent ? NO_EVENT : fieldRefusal(call.error);
  const change = (part: Partial<WebhookDraft>) => {
    setNoEvent(false);
    setDraft((current) => ({ ...current, ...part }));
  };
  /** False (and the refusal shown) when no event is chosen. */
  const complete = () => {
    const ok = eventsOf(draft).length > 0;
    setNoEvent(!ok);
    if (!ok) call.setError(undefined);
    return ok;
  };
  return { draft, setDraft, change, call, refusal, complete };
}

export function CreateWebhookForm(props: {
  api: Api;
  onCreated: (created: Schemas['CreatedWebhook']) => void;
}) {
  const { draft, setDraft, change, call, refusal, complete } = useDraft();

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy || !complete()) return;
    const created = await call.run(
      outcome(
        props.api.POST('/webhooks', {
          body: {
            url: draft.url.trim(),
            events: eventsOf(draft),
            ...(draft.description.trim() !== '' && { description: draft.description.trim() }),
          },
        }),
      ),
    );
    if (!created) return;
    props.onCreated(created.data);
    setDraft(draftOf());
  }

  return (
    <form class="panel narrow" aria-labelledby="new-webhook" onSubmit={(e) => void submit(e)}>
      <h3 id="new-webhook">New webhook</h3>
      <WebhookFields id="new-webhook" draft={draft} onChange={change} refusal={refusal} />
      <ErrorAlert text={refusal ? undefined : call.error} />
      <button type="submit" class="wide" disabled={call.busy}>
        {call.busy ? 'Creating …' : 'Create webhook'}
      </button>
    </form>
  );
}

export function WebhookSettingsForm(props: {
  api: Api;
  webhook: Webhook;
  onSaved: (webhook: Webhook) => void;
}) {
  const { webhook } = props;
  const { draft, change, call, refusal, complete } = useDraft(webhook);
  const [enabled, setEnabled] = useState(webhook.enabled);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy || !complete()) return;
    const saved = await call.run(
      outcome(
        props.api.PATCH('/webhooks/{id}', {
          params: { path: { id: webhook.id } },
          body: {
            url: draft.url.trim(),
            events: eventsOf(draft),
            description: draft.description.trim(),
            enabled,
          },
        }),
      ),
    );
    if (saved) props.onSaved(saved.data);
  }

  return (
    <form class="panel narrow" aria-labelledby="webhook-settings" onSubmit={(e) => void submit(e)}>
      <h3 id="webhook-settings">Settings</h3>
      <WebhookFields id="webhook" draft={draft} onChange={change} refusal={refusal} />
      <label class="check">
        <input
          type="checkbox"
          checked={enabled}
          aria-describedby="webhook-enabled-hint"
          onChange={(event) => setEnabled(event.currentTarget.checked)}
        />
        <span>
          Enabled
          <span class="hint check-hint" id="webhook-enabled-hint">
            While disabled, it gets no new events; deliveries already queued (and failed ones) are
            sent when it is enabled again.
          </span>
        </span>
      </label>
      <ErrorAlert text={refusal ? undefined : call.error} />
      <button type="submit" class="wide" disabled={call.busy}>
        {call.busy ? 'Saving …' : 'Save changes'}
      </button>
    </form>
  );
}
