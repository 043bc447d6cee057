// A field the API refused, told to a person as a German sentence about that field, shown beside
// it („Bitte einen Namen eingeben …“), never as the API's path and rule
// („Ungültige Anfrage: body.name darf nicht kürzer als 1 Zeichen sein“). The forms share the
// sentences; a refusal of something no form field holds stays the API's message, as it comes.
// Showing the sentence beside its input is web-kit's (FieldMessage, refusedInput).
import type { FieldRefusal } from '@dogshop/web-kit';

export { FieldMessage, refusedInput, type FieldRefusal } from '@dogshop/web-kit';

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

/** The refused field of a failure text and its sentence, when it is one a form holds. */
export function fieldRefusal(message: string | undefined): FieldRefusal | undefined {
  const field = message && REFUSED_FIELD.exec(message)?.[1];
  const text = field ? FIELD_MESSAGES[field] : undefined;
  return field && text ? { field, text } : undefined;
}
