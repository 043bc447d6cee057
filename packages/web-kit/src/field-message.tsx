// A field the API refused, told to a person as a sentence about that field, shown beside it,
// never as the API's path and rule. Which sentence belongs to which field is the service's
// (its language, its fields): it passes its `fieldRefusal` to the forms; this is the showing.

export interface FieldRefusal {
  /** The field, as the API names it (`name`, `gps.lat`, `price`). */
  field: string;
  text: string;
}

/** The refused field of a failure text and its sentence, when a form holds that field. */
export type FieldRefusalOf = (message: string | undefined) => FieldRefusal | undefined;

/** The id of the sentence shown beside a field (for its input's aria-describedby). */
export const fieldMessageId = (inputId: string) => `${inputId}-message`;

/**
 * The sentence beside the input `inputId` when the API refused `field`, read out at once;
 * nothing otherwise.
 */
export function FieldMessage(props: {
  refusal: FieldRefusal | undefined;
  field: string;
  inputId: string;
}) {
  return props.refusal?.field === props.field ? (
    <p class="error field-message" id={fieldMessageId(props.inputId)} role="alert">
      {props.refusal.text}
    </p>
  ) : null;
}

/** The input's ARIA attributes while the API refuses `field` (its own hints in `describedBy`). */
export function refusedInput(
  refusal: FieldRefusal | undefined,
  field: string,
  inputId: string,
  describedBy?: string,
) {
  const refused = refusal?.field === field;
  const ids = [describedBy, refused ? fieldMessageId(inputId) : undefined].filter(Boolean);
  return {
    'aria-invalid': refused || undefined,
    'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
  };
}
