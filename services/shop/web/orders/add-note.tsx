// A note on an order, kept on its timeline with the staff member's name.
import { ErrorAlert } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { FieldMessage, fieldRefusal, refusedInput } from '../lib/field-messages';
import type { Api, Schemas } from '../lib/api';
import { useCall } from '../lib/use-call';

export function AddNote(props: {
  api: Api;
  orderId: number;
  onAdded: (entry: Schemas['OrderTimelineEntry']) => void;
}) {
  const call = useCall();
  const [text, setText] = useState('');
  const refusal = fieldRefusal(call.error);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const added = await call.run(
      props.api.POST('/admin/orders/{id}/notes', {
        params: { path: { id: props.orderId } },
        body: { text: text.trim() },
      }),
    );
    if (added) {
      setText('');
      props.onAdded(added.data);
    }
  }

  return (
    <form class="add-note" onSubmit={(event) => void submit(event)}>
      <label for="order-note">Add a note</label>
      <textarea
        id="order-note"
        value={text}
        maxLength={2000}
        required
        onInput={(event) => setText(event.currentTarget.value)}
        {...refusedInput(refusal, 'text', 'order-note')}
      />
      <FieldMessage refusal={refusal} field="text" inputId="order-note" />
      {!refusal && <ErrorAlert text={call.error} />}
      <div class="button-row">
        <button type="submit" disabled={call.busy}>
          {call.busy ? 'Saving …' : 'Add note'}
        </button>
      </div>
    </form>
  );
}
