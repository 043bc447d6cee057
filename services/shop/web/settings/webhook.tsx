// One webhook (admins only): its state, a ping, a new signing secret (shown once; the previous
// one keeps signing beside it for a day), its delivery log with Retry, its settings, and deleting
// it after a confirmation.
import { ErrorAlert, useCall, useResource } from '@dogshop/web-kit';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SectionProps } from '../app/app';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { adminOnly } from './admin-only';
import { Confirm } from './confirm';
import { DeliveryLog } from './delivery-log';
import { eventsText } from './events';
import { ShownSecret } from './shown-secret';
import { WebhookSettingsForm } from './webhook-form';
import { WebhookState } from './webhook-state';
import './settings.css';

type Webhook = Schemas['Webhook'];

const LIST = '/app/settings/webhooks';

export const WebhookPage = adminOnly(function WebhookOf({ session, params }: SectionProps) {
  const { api } = session;
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;
  const record = useResource(
    valid ? () => outcome(api.GET('/webhooks/{id}', { params: { path: { id } } })) : undefined,
    [id],
  );
  const webhook = record.data?.data;
  const [deleted, setDeleted] = useState<string | undefined>();

  if (deleted !== undefined) return <Deleted url={deleted} />;
  if (!valid || record.failure?.status === 404) {
    return (
      <section aria-labelledby="page-heading" class="settings">
        <h2 id="page-heading">There is no such webhook</h2>
        <p>
          It may have been deleted. <a href={LIST}>All webhooks</a>
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="page-heading" class="settings">
      <p class="back-link">
        <a href={LIST}>All webhooks</a>
      </p>
      <h2 id="page-heading" class="webhook-heading">
        {webhook ? webhook.url : 'Webhook'}
      </h2>
      <p class="status" role="status">
        {record.loading && !webhook ? 'Loading the webhook …' : ''}
      </p>
      <ErrorAlert text={record.error} />
      {webhook && (
        <WebhookDetails
          api={api}
          webhook={webhook}
          onChanged={(changed) => record.mutate((answer) => ({ ...answer, data: changed }))}
          onDeleted={() => setDeleted(webhook.url)}
        />
      )}
    </section>
  );
});

function WebhookDetails(props: {
  api: Api;
  webhook: Webhook;
  onChanged: (webhook: Webhook) => void;
  onDeleted: () => void;
}) {
  const { api, webhook } = props;
  const path = { params: { path: { id: webhook.id } } };
  const ping = useCall();
  const [notice, setNotice] = useState('');
  const [version, setVersion] = useState(0);
  const [rotated, setRotated] = useState<Schemas['RotatedSecret'] | undefined>();
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | undefined>();
  const pingButton = useRef<HTMLButtonElement>(null);

  async function sendPing() {
    if (ping.busy) return;
    setNotice('');
    const queued = await ping.run(outcome(api.POST('/webhooks/{id}/ping', path)));
    if (!queued) return;
    setNotice(
      webhook.enabled
        ? 'Ping queued: its delivery shows in the log below.'
        : 'Ping queued: it is sent when the webhook is enabled again.',
    );
    setVersion((v) => v + 1);
  }

  return (
    <>
      {webhook.description && <p class="lead">{webhook.description}</p>}
      {webhook.disabled_reason && (
        <p class="notice">
          The shop disabled this webhook because its deliveries kept failing (
          {webhook.disabled_reason}). Enable it again below once the receiver works: what waits is
          sent then.
        </p>
      )}
      <dl class="facts-list">
        <dt>Status</dt>
        <dd>
          <WebhookState webhook={webhook} />
        </dd>
        <dt>Events</dt>
        <dd>{eventsText(webhook.events)}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(webhook.created_at)}</dd>
      </dl>
      <div class="button-row">
        <button
          type="button"
          ref={pingButton}
          aria-disabled={ping.busy}
          onClick={() => void sendPing()}
        >
          {ping.busy ? 'Sending …' : 'Send a ping'}
        </button>
        <button type="button" class="secondary" onClick={() => setConfirming('rotate')}>
          Rotate the signing secret
        </button>
        <button type="button" class="secondary" onClick={() => setConfirming('delete')}>
          Delete webhook
        </button>
      </div>
      <p class="status" role="status">
        {notice}
      </p>
      <ErrorAlert text={ping.error} />
      {rotated && (
        <ShownSecret
          id="rotated-secret"
          heading="New signing secret"
          label="Signing secret"
          value={rotated.secret}
          onDone={() => {
            setRotated(undefined);
            pingButton.current?.focus();
          }}
        >
          <p>
            It is shown only now. Put it into the receiver’s settings before{' '}
            {formatDateTime(rotated.previous_secret_expires_at)}: until then every delivery is
            signed with the new and the previous secret, after that with the new one only.
          </p>
        </ShownSecret>
      )}
      <DeliveryLog api={api} webhookId={webhook.id} version={version} />
      <WebhookSettingsForm
        api={api}
        webhook={webhook}
        onSaved={(saved) => {
          props.onChanged(saved);
          setNotice('');
          setVersion((v) => v + 1);
        }}
      />
      {confirming === 'rotate' && (
        <RotateSecret
          api={api}
          webhook={webhook}
          onRotated={(secret) => {
            setConfirming(undefined);
            setRotated(secret);
          }}
          onClose={() => setConfirming(undefined)}
        />
      )}
      {confirming === 'delete' && (
        <DeleteWebhook
          api={api}
          webhook={webhook}
          onDeleted={props.onDeleted}
          onClose={() => setConfirming(undefined)}
        />
      )}
    </>
  );
}

function RotateSecret(props: {
  api: Api;
  webhook: Webhook;
  onRotated: (rotated: Schemas['RotatedSecret']) => void;
  onClose: () => void;
}) {
  const call = useCall();
  async function rotate() {
    const rotated = await call.run(
      outcome(
        props.api.POST('/webhooks/{id}/rotate-secret', {
          params: { path: { id: props.webhook.id } },
        }),
      ),
    );
    if (rotated) props.onRotated(rotated.data);
  }
  return (
    <Confirm
      id="rotate-secret"
      heading="Rotate the signing secret?"
      confirm="Rotate secret"
      busyText="Rotating …"
      busy={call.busy}
      error={call.error}
      onConfirm={() => void rotate()}
      onClose={props.onClose}
    >
      <p>
        The shop signs with a new secret from now on, and for 24 hours also with the current one, so
        the receiver can switch to the new one without missing a delivery. The new secret is shown
        once.
      </p>
    </Confirm>
  );
}

function DeleteWebhook(props: {
  api: Api;
  webhook: Webhook;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const call = useCall();
  async function remove() {
    const removed = await call.run(
      outcome(props.api.DELETE('/webhooks/{id}', { params: { path: { id: props.webhook.id } } })),
    );
    if (removed) props.onDeleted();
  }
  return (
    <Confirm
      id="delete-webhook"
      heading="Delete this webhook?"
      confirm="Delete webhook"
      busyText="Deleting …"
      busy={call.busy}
      error={call.error}
      onConfirm={() => void remove()}
      onClose={props.onClose}
    >
      <p class="webhook-url">{props.webhook.url}</p>
      <p>
        It gets no more events, and its delivery log is deleted with it. This cannot be undone; to
        pause deliveries instead, disable it in its settings.
      </p>
    </Confirm>
  );
}

/** What is left after deleting: where it went, and the way back to the list. */
function Deleted({ url }: { url: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="page-heading" class="settings">
      <h2 id="page-heading" tabIndex={-1} ref={heading}>
        Webhook deleted
      </h2>
      <p>
        <span class="webhook-url">{url}</span> gets no more events. <a href={LIST}>All webhooks</a>
      </p>
    </section>
  );
}
