// One labelled coordinate input (latitude or longitude), as the finder and the admin app's
// editor take it: decimal degrees typed as text, comma or point (parseCoordinate).
import type { RefObject } from 'preact';

export function CoordinateField(props: {
  id: string;
  label: string;
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  onValue: (value: string) => void;
  invalid: boolean;
  /** The ids of the texts that describe the input: its hint and any error. */
  describedBy: string;
  /** A hint shown below the input, with `describedBy` as its id. */
  hint?: string;
  spellcheck?: boolean;
}) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        ref={props.inputRef}
        inputMode="decimal"
        autoComplete="off"
        spellcheck={props.spellcheck}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
        aria-invalid={props.invalid}
        aria-describedby={props.describedBy}
      />
      {props.hint && (
        <p class="hint" id={props.describedBy}>
          {props.hint}
        </p>
      )}
    </div>
  );
}
