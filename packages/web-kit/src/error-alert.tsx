// The text of a failure where it happened (a form, a button, a list), read out at once.

/** A `role="alert"` paragraph with `text`; nothing while there is none. */
export function ErrorAlert({ text }: { text: string | undefined }) {
  return text ? (
    <p class="error" role="alert">
      {text}
    </p>
  ) : null;
}
