// Webhooks (admins only): the shop's subscriptions (address, events, enabled), each linking to
// its page (settings, ping, secret, delivery log); a new subscription, whose signing secret the
// API gives in its answer only, shown once.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { useRef, useState } from 'preact/hooks';
import type { SectionProps } from '../app/app';
import { webhookPath } from '../app/paths';
import { outcome, type Schemas } from '../lib/api';
import { adminOnly } from './admin-only';
import { eventsText } from './events';
import { ShownSecret } from './shown-secret';
import { CreateWebhookForm } from './webhook-form';
import { WebhookState } from './webhook-state';
import './settings.css';

type Webhook = Schemas['Webhook'];

export const Webhooks = adminOnly(function WebhooksPage({ session }: SectionProps) {
  const { api } = session;
  const list = useResource(() => outcome(api.GET('/webhooks')), []);
  const webhooks = list.data?.data;
  const [created, setCreated] = useState<Schemas['CreatedWebhook'] | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section aria-labelledby="page-heading" class="settings">
      <h2 id="page-heading" tabIndex={-1} ref={heading}>
        Webhooks
      </h2>
      <p class="lead">
        The shop sends its events (orders, reviews, products) to these addresses as they happen,
        signed with each webhook’s secret.
      </p>
      <p class="status" role="status">
        {webhooks
          ? `${webhooks.length} ${webhooks.length === 1 ? 'webhook' : 'webhooks'}`
          : list.loading
            ? 'Loading the webhooks …'
            : ''}
      </p>
      <ErrorAlert text={list.error} />
      {webhooks && webhooks.length > 0 && (
        <div class="table-wrap">
          <table class="webhooks-table" aria-label="Webhooks">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Events</th>
                <th scope="col">Description</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((webhook) => (
                <WebhookRow key={webhook.id} webhook={webhook} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {created && (
        <ShownSecret
          id="new-webhook-secret"
          heading="Webhook created: its signing secret"
          label="Signing secret"
          value={created.secret}
          onDone={() => {
            setCreated(undefined);
            heading.current?.focus();
          }}
        >
          <p>
            The receiver checks each delivery’s signature with this secret (Standard Webhooks). It
            is shown only now; if it is lost, rotate it on the{' '}
            <a href={webhookPath(created.id)}>webhook’s page</a>.
          </p>
        </ShownSecret>
      )}
      <CreateWebhookForm
        api={api}
        onCreated={(webhook) => {
          const { secret: _secret, ...listed } = webhook;
          list.mutate((answer) => ({ ...answer, data: [...answer.data, listed] }));
          setCreated(webhook);
        }}
      />
    </section>
  );
});

function WebhookRow({ webhook }: { webhook: Webhook }) {
  return (
    <tr>
      <th scope="row" class="webhook-url">
        <a href={webhookPath(webhook.id)}>{webhook.url}</a>
      </th>
      <td>{eventsText(webhook.events)}</td>
      <td>{webhook.description || <span class="muted">—</span>}</td>
      <td>
        <WebhookState webhook={webhook} />
      </td>
    </tr>
  );
}
