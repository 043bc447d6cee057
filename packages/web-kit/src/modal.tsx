// A modal `<dialog>` (a confirmation, a record's history): the browser keeps the focus inside it,
// Escape closes it, and focus returns to the button that opened it when it closes. Styled by
// app.css (`.modal`).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Modal(props: {
  /** The id of the dialog's heading, which names it. */
  labelledBy: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement;
    element?.showModal();
    return () => {
      element?.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="modal"
      aria-labelledby={props.labelledBy}
      // Escape: the browser closes the dialog; the page forgets it too.
      onClose={props.onClose}
    >
      {props.children}
    </dialog>
  );
}
