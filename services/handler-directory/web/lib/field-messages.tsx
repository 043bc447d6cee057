// A field the API refused, told to a person as a German sentence about that field, shown beside
// it („Bitte einen Namen eingeben …“), never as the API's path and rule
// („Ungültige Anfrage: body.name darf nicht kürzer als 1 Zeichen sein“). The forms share the
// sentences; a refusal of something no form field holds stays the API's message, as it comes.

/** The sentence for each field a form holds, by the name the API gives it. */
const FIELD_MESSAGES: Record<string, string> = {
  name: 'Bitte einen Namen eingeben (1 bis 200 Zeichen).',
  phone: 'Bitte eine Telefonnummer eingeben (1 bis 50 Zeichen).',
  address: 'Die Adresse darf höchstens 300 Zeichen lang sein.',
  type: 'Der Typ darf höchstens 50 Zeichen lang sein.',
  availableUntil: 'Bitte ein Ende wählen, das in der Zukunft liegt, oder das Feld leer lassen.',
  'gps.lat': 'Bitte einen Breitengrad zwischen −90 und 90 eingeben.',
  'gps.lng': 'Bitte einen Längengrad zwischen −180 und 180 eingeben.',
  username:
    'Bitte einen Benutzernamen aus 3 bis 64 Buchstaben, Ziffern, Punkten, Unterstrichen, @ oder Bindestrichen eingeben.',
  password: 'Bitte ein Passwort aus 12 bis 128 Zeichen eingeben.',
  newPassword: 'Bitte ein neues Passwort aus 12 bis 128 Zeichen eingeben.',
};

/** `Ungültige Anfrage: body.gps.lat muss …` → `gps.lat`; also the rules the service states itself. */
const REFUSED_FIELD = /^Ungültige Anfrage: (?:body\.)?([A-Za-z]+(?:\.[A-Za-z]+)?) /;

export interface FieldRefusal {
  /** The field, as the API names it (`name`, `gps.lat`). */
  field: string;
  text: string;
}

/** The refused field of a failure text and its sentence, when it is one a form holds. */
export function fieldRefusal(message: string | undefined): FieldRefusal | undefined {
  const field = message && REFUSED_FIELD.exec(message)?.[1];
  const text = field ? FIELD_MESSAGES[field] : undefined;
  return field && text ? { field, text } : undefined;
}

/** The id of the sentence shown beside a field (for its input's aria-describedby). */
export const fieldMessageId = (inputId: string) => `${inputId}-fehler`;

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
