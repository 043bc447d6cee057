// A webhook's delivery log, newest first, a page at a time, filtered by outcome (page and filter
// in the URL: Back returns to the previous view). A delivery whose last attempt failed has Retry
// (sent again at once). While a shown delivery is due soon, the log reads itself again every few
// seconds, so a ping or a retry shows its outcome without a reload.
import { ErrorAlert, useCall, useLocation, useResource, withQuery } from '@dogshop/web-kit';
import { useEffect, useState } from 'preact/hooks';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatCount, formatDateTime } from '../lib/format';

type Delivery = Schemas['Delivery'];
type Outcome = Schemas['DeliveryOutcome'];

const PAGE_SIZE = 20;
/** How often the log is read again while a shown delivery is due soon. */
const POLL_MS = 1_500;
/** "Soon": a retry later than this (minutes, hours) is not waited for. */
const SOON_MS = 60_000;

const FILTERS: readonly { value: '' | Outcome; label: string }[] = [
  { value: '', label: 'All deliveries' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'pending', label: 'Queued or retrying' },
  { value: 'failed', label: 'Failed, not retried' },
];

const filterOf = (value: string | undefined) =>
  FILTERS.find((f) => f.value !== '' && f.value === value)?.value ?? '';

const pageOf = (value: string | undefined) => {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
};

/**
 * Being sent now: a worker claimed it (counting the attempt) and has not recorded the answer yet.
 * Its `next_attempt_at` is then the claim's end, not a retry.
 */
const sending = (d: Delivery) => d.status === 'pending' && d.attempts > d.log.length;

/** Its last attempt failed (and none is under way): it may be sent again now. */
const retriable = (d: Delivery) =>
  d.status === 'failed' || (d.status === 'pending' && d.log.length > 0 && !sending(d));

const dueSoon = (d: Delivery) =>
  d.status === 'pending' &&
  (sending(d) ||
    d.next_attempt_at === null ||
    Date.parse(d.next_attempt_at) - Date.now() < SOON_MS);

function outcomeText(d: Delivery): string {
  if (d.status === 'delivered') return 'Delivered';
  if (d.status === 'failed') return 'Failed, not retried';
  if (sending(d)) return 'Sending …';
  if (d.log.length === 0) return 'Queued';
  return d.next_attempt_at ? `Failed, next try ${formatDateTime(d.next_attempt_at)}` : 'Failed';
}

type Attempt = Delivery['log'][number];

const attemptText = (a: Attempt) =>
  `${a.status_code !== null ? `HTTP ${a.status_code}` : (a.error ?? 'No answer')} · ${formatDateTime(a.at)} · ${formatCount(a.duration_ms)} ms`;

export function DeliveryLog(props: {
  api: Api;
  webhookId: number;
  /** Changed after a ping: read the log again. */
  version: number;
}) {
  const { api, webhookId } = props;
  const location = useLocation();
  const filter = filterOf(location.query.outcome);
  const page = pageOf(location.query.page);
  const log = useResource(
    () =>
      outcome(
        api.GET('/webhooks/{id}/deliveries', {
          params: {
            path: { id: webhookId },
            query: { page, limit: PAGE_SIZE, ...(filter !== '' && { outcome: filter }) },
          },
        }),
      ),
    [webhookId, filter, page, props.version],
    { keep: true },
  );
  const answer = log.data?.data;
  const retry = useCall();
  const [retrying, setRetrying] = useState<number | undefined>();
  const [notice, setNotice] = useState('');

  useEffect(() => {
    if (log.loading || !answer?.deliveries.some(dueSoon)) return;
    const timer = setTimeout(log.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [answer, log.loading]);

  const show = (query: { outcome?: string; page?: number }) => {
    setNotice('');
    location.route(
      withQuery(
        location.path,
        {
          outcome: query.outcome ?? filter,
          page: String(query.page ?? 1),
        },
        { page: '1' },
      ),
    );
  };

  async function send(delivery: Delivery) {
    setRetrying(delivery.id);
    setNotice('');
    const again = await retry.run(
      outcome(
        api.POST('/webhooks/{id}/deliveries/{deliveryId}/retry', {
          params: { path: { id: webhookId, deliveryId: delivery.id } },
        }),
      ),
    );
    setRetrying(undefined);
    if (!again) return;
    setNotice(`The ${delivery.event_type} delivery is being sent again.`);
    log.mutate((shown) => ({
      ...shown,
      data: {
        ...shown.data,
        deliveries: shown.data.deliveries.map((d) => (d.id === again.data.id ? again.data : d)),
      },
    }));
  }

  const pages = answer?.pagination.pages ?? 0;
  return (
    <section aria-labelledby="deliveries-heading" class="delivery-log">
      <h3 id="deliveries-heading">Deliveries</h3>
      <div class="toolbar">
        <div>
          <label for="delivery-outcome">Outcome</label>
          <select
            id="delivery-outcome"
            value={filter}
            onChange={(event) => show({ outcome: event.currentTarget.value })}
          >
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p class="status" role="status">
        {answer
          ? answer.pagination.total === 0
            ? filter === ''
              ? 'No deliveries yet. Send a ping to try the address.'
              : 'No deliveries with this outcome.'
            : `${formatCount(answer.pagination.total)} ${answer.pagination.total === 1 ? 'delivery' : 'deliveries'}${pages > 1 ? `, page ${page} of ${pages}` : ''}`
          : log.loading
            ? 'Loading the deliveries …'
            : ''}
      </p>
      <ErrorAlert text={log.error ?? retry.error} />
      <p class="status" role="status">
        {notice}
      </p>
      {answer && answer.deliveries.length > 0 && (
        <div class="table-wrap">
          <table aria-labelledby="deliveries-heading">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Outcome</th>
                <th scope="col">Last attempt</th>
              </tr>
            </thead>
            <tbody>
              {answer.deliveries.map((delivery) => (
                <DeliveryRow
                  key={delivery.id}
                  delivery={delivery}
                  busy={retrying === delivery.id}
                  onRetry={retry.busy ? undefined : () => void send(delivery)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <div class="button-row">
          {page > 1 && (
            <button type="button" class="secondary" onClick={() => show({ page: page - 1 })}>
              Newer deliveries
            </button>
          )}
          {page < pages && (
            <button type="button" class="secondary" onClick={() => show({ page: page + 1 })}>
              Older deliveries
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function DeliveryRow(props: {
  delivery: Delivery;
  busy: boolean;
  onRetry: (() => void) | undefined;
}) {
  const { delivery } = props;
  const last = delivery.log.at(-1);
  const failed = delivery.status === 'failed' || retriable(delivery);
  // The retry beside the outcome it changes: on a phone, both in the first screenful.
  return (
    <tr>
      <th scope="row">
        <code>{delivery.event_type}</code>
        <span class="cell-note">{formatDateTime(delivery.created_at)}</span>
      </th>
      <td class="delivery-outcome">
        <span
          class={
            delivery.status === 'delivered'
              ? 'outcome-delivered'
              : failed
                ? 'outcome-failed'
                : undefined
          }
        >
          {outcomeText(delivery)}
        </span>
        {retriable(delivery) && (
          <button
            type="button"
            class="secondary cell-action"
            aria-disabled={!props.onRetry}
            onClick={props.onRetry}
          >
            {props.busy ? 'Retrying …' : 'Retry'}
            <span class="visually-hidden">
              {' '}
              {delivery.event_type} of {formatDateTime(delivery.created_at)}
            </span>
          </button>
        )}
      </td>
      <td class="delivery-attempt">
        {last ? attemptText(last) : <span class="muted">Not sent yet</span>}
        {delivery.log.length > 1 && (
          <details class="attempts">
            <summary>All {delivery.log.length} attempts</summary>
            <ol>
              {delivery.log.map((attempt) => (
                <li key={attempt.at}>{attemptText(attempt)}</li>
              ))}
            </ol>
          </details>
        )}
      </td>
    </tr>
  );
}
