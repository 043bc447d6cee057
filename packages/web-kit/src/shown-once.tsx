// A secret shown once (a set-password link, an API key, a webhook's signing secret): the API hands
// it out only in that answer, and the page keeps it in memory only (a reload forgets it). Focus
// moves to its heading so a screen reader reads it out; a button copies it. Texts from the service.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export interface ShownOnceTexts {
  /** The field's label. */
  label: string;
  copy: string;
  copied: string;
  /** No clipboard (permission refused, or no secure context): copy from the field by hand. */
  copyFailed: string;
  done: string;
}

export function ShownOnce(props: {
  /** The heading's id (unique on the page). */
  id: string;
  heading: ComponentChildren;
  /** What the secret is for and that it is shown only now. */
  children: ComponentChildren;
  value: string;
  texts: ShownOnceTexts;
  onDone: () => void;
}) {
  const { texts } = props;
  const [copied, setCopied] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setCopied('');
    heading.current?.focus();
  }, [props.value]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(texts.copied);
    } catch {
      setCopied(texts.copyFailed);
    }
  }

  return (
    <section class="panel shown-once" aria-labelledby={props.id}>
      <h3 id={props.id} tabIndex={-1} ref={heading}>
        {props.heading}
      </h3>
      {props.children}
      <label for={`${props.id}-value`}>{texts.label}</label>
      <input
        id={`${props.id}-value`}
        readOnly
        value={props.value}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div class="button-row">
        <button type="button" onClick={() => void copy()}>
          {texts.copy}
        </button>
        <button type="button" class="secondary" onClick={props.onDone}>
          {texts.done}
        </button>
      </div>
      <p class="status" role="status">
        {copied}
      </p>
    </section>
  );
}
