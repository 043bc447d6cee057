// "Really?" before a write that cannot be undone (revoking a key, deleting a webhook) or that
// others must follow (a new signing secret): web-kit's Modal, Cancel focused first, so Enter or
// Escape keeps things as they are. The confirming button stays focusable while busy
// (aria-disabled), so the focus is not lost.
import { ErrorAlert, Modal } from '@dogshop/web-kit';
import type { ComponentChildren } from 'preact';

export function Confirm(props: {
  id: string;
  heading: ComponentChildren;
  /** The confirming button's text, and its text while the call runs. */
  confirm: string;
  busyText: string;
  busy: boolean;
  error: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  return (
    <Modal labelledBy={props.id} onClose={props.onClose}>
      <h2 id={props.id}>{props.heading}</h2>
      {props.children}
      <ErrorAlert text={props.error} />
      <div class="button-row">
        <button
          type="button"
          aria-disabled={props.busy}
          onClick={() => {
            if (!props.busy) props.onConfirm();
          }}
        >
          {props.busy ? props.busyText : props.confirm}
        </button>
        <button type="button" class="secondary" onClick={props.onClose} autoFocus>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
