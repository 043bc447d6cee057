// The buttons for the statuses an order may change to now, each opening a dialog that asks for
// an optional note (kept on the timeline) before the change is made.
import { ErrorAlert, Modal } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { useCall } from '../lib/use-call';
import { FieldMessage, fieldRefusal, refusedInput } from '../lib/field-messages';
import type { Api, OrderStatus, Schemas } from '../lib/api';
import { STATUS_NAMES } from '../lib/format';

type Order = Schemas['AdminOrderDetail'];

/** The button's words: what the change does, not the status's name alone. */
const ACTIONS: Record<OrderStatus, string> = {
  pending: 'Back to pending',
  confirmed: 'Confirm',
  shipped: 'Mark as shipped',
  delivered: 'Mark as delivered',
  cancelled: 'Cancel order',
};

export function StatusChange(props: {
  api: Api;
  order: Order;
  onChanged: (order: Schemas['AdminOrderDetailResponse']) => void;
}) {
  const [chosen, setChosen] = useState<OrderStatus | undefined>();
  const call = useCall();
  const refusal = fieldRefusal(call.error);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosen) return;
    const field = new FormData(event.currentTarget).get('note');
    const note = typeof field === 'string' ? field.trim() : '';
    const changed = await call.run(
      props.api.POST('/admin/orders/{id}/status', {
        params: { path: { id: props.order.id } },
        body: { status: chosen, ...(note && { note }) },
      }),
    );
    if (changed) {
      setChosen(undefined);
      props.onChanged(changed);
    }
  }

  return (
    <div class="button-row status-actions">
      {props.order.allowed_next.map((status) => (
        <button
          key={status}
          type="button"
          class={status === 'cancelled' ? 'secondary' : undefined}
          onClick={() => {
            call.setError(undefined);
            setChosen(status);
          }}
        >
          {ACTIONS[status]}
        </button>
      ))}
      {chosen && (
        <Modal labelledBy="status-change-heading" onClose={() => setChosen(undefined)}>
          <form onSubmit={(event) => void submit(event)}>
            <h2 id="status-change-heading">
              Order #{props.order.id}: {STATUS_NAMES[props.order.status]} → {STATUS_NAMES[chosen]}
            </h2>
            <label for="status-note">Note (optional)</label>
            <textarea
              id="status-note"
              name="note"
              maxLength={1000}
              {...refusedInput(refusal, 'note', 'status-note', 'status-note-hint')}
            />
            <p id="status-note-hint" class="hint">
              Kept on the order’s timeline with your name, for example a parcel’s tracking number.
            </p>
            <FieldMessage refusal={refusal} field="note" inputId="status-note" />
            {!refusal && <ErrorAlert text={call.error} />}
            <div class="button-row">
              <button type="submit" disabled={call.busy}>
                {call.busy ? 'Saving …' : ACTIONS[chosen]}
              </button>
              <button type="button" class="secondary" onClick={() => setChosen(undefined)}>
                Keep as {STATUS_NAMES[props.order.status]}
              </button>
            </div>
          </form>
        </Modal>
      )}
    </div>
  );
}
