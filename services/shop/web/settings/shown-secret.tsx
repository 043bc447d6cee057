// A secret or link the API hands out once (a set-password link, a secret key, a webhook's signing
// secret), shown with web-kit's ShownOnce and the settings' English texts: in memory only, gone
// after "Done" or a reload.
import { ShownOnce } from '@dogshop/web-kit';
import type { ComponentChildren } from 'preact';

const texts = (label: string) => ({
  label,
  copy: 'Copy',
  copied: 'Copied to the clipboard.',
  copyFailed: 'Copying is not possible here: select the text in the field and copy it.',
  done: 'Done',
});

export function ShownSecret(props: {
  /** The heading's id (unique on the page); the field's is `<id>-value`. */
  id: string;
  heading: ComponentChildren;
  /** The field's label ("Secret key"). */
  label: string;
  value: string;
  onDone: () => void;
  /** What it is for, and that it is shown only now. */
  children: ComponentChildren;
}) {
  return (
    <ShownOnce
      id={props.id}
      heading={props.heading}
      value={props.value}
      texts={texts(props.label)}
      onDone={props.onDone}
    >
      {props.children}
    </ShownOnce>
  );
}
