// A field the API refused, told to a person as a sentence about that field, shown beside it
// ("Enter a price of at most two decimals …"), never as the API's path and rule
// ("body.price must be <= 99999999.99"). The forms share the sentences; a refusal of something no
// form field holds stays the API's message, as it comes. Showing the sentence beside its input is
// web-kit's (FieldMessage, refusedInput).
import type { FieldRefusal } from '@dogshop/web-kit';

export { FieldMessage, refusedInput, type FieldRefusal } from '@dogshop/web-kit';

/** The sentence for each field a form holds, by the name the API gives it. */
const FIELD_MESSAGES: Record<string, string> = {
  name: 'Enter a name: not empty, and not longer than the field allows.',
  description: 'The description is longer than the field allows.',
  price: 'Enter a price from 0 to 99,999,999.99 with at most two decimals.',
  stock: 'Enter a stock of 0 or more (whole numbers).',
  category_id: 'Choose a category.',
  parent_id: 'Choose a parent category, or none.',
  delta: 'Enter a whole number other than 0 to add (or, with a minus, to take away).',
  set: 'Enter the counted stock: a whole number of 0 or more.',
  reason: 'Give a reason (1 to 500 characters).',
  note: 'A note may have at most 1,000 characters, and not only spaces.',
  text: 'Write the note (1 to 2,000 characters).',
  email: 'Enter an e-mail address.',
  url: 'Enter the receiver’s address, starting with https://.',
  events: 'Choose at least one event.',
  scopes: 'Choose at least one scope.',
  title: 'Enter a name for the key (1 to 100 characters).',
  sort_order: 'Enter a position from −1,000,000 to 1,000,000.',
  password: 'Enter a password of 12 to 128 characters.',
  new_password: 'Enter a new password of 12 to 128 characters.',
  current_password: 'Enter your current password.',
};

/** `body.price must be …` → `price`; `querystring.q …` → `q`. */
const REFUSED_FIELD = /^(?:body|querystring)\.([a-z_]+) /;

/** The refused field of a failure text and its sentence, when it is one a form holds. */
export function fieldRefusal(message: string | undefined): FieldRefusal | undefined {
  const field = message && REFUSED_FIELD.exec(message)?.[1];
  const text = field ? FIELD_MESSAGES[field] : undefined;
  return field && text ? { field, text } : undefined;
}

/** The sentence of `field`, for a check a form makes before sending (a price that is no amount). */
export function fieldSentence(field: string): FieldRefusal | undefined {
  const text = FIELD_MESSAGES[field];
  return text ? { field, text } : undefined;
}
