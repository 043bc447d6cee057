// An address's fields, each declared once: its name in the API, its name in the Prisma model,
// and whether a body's text for it must not be blank. The stored shape (AddressFields), what a
// body stores (service.ts) and the API shape (mapper.ts) derive from it. The address book's own
// fields, `id` and `is_default`, are handled where their rules live (repository.ts, service.ts).
// A field the contract's Address adds fails the build here until it has an entry.
import type { Address, CreateAddressBody, UpdateAddressBody } from '@dogshop/contracts/shop';
import { requiredText } from '../../domain/text.js';
import type { AddressRow } from './repository.js';

type AddressField = { stored: keyof AddressRow; text: 'required' | 'optional' };

/** Every field of an address the customer writes, in the API's order. */
export const ADDRESS_FIELDS = {
  first_name: { stored: 'firstName', text: 'required' },
  last_name: { stored: 'lastName', text: 'required' },
  company: { stored: 'company', text: 'optional' },
  address: { stored: 'address', text: 'required' },
  city: { stored: 'city', text: 'required' },
  postal_code: { stored: 'postalCode', text: 'required' },
  country: { stored: 'country', text: 'required' },
  phone: { stored: 'phone', text: 'optional' },
} as const satisfies Record<Exclude<keyof Address, 'id' | 'is_default'>, AddressField>;

type Fields = typeof ADDRESS_FIELDS;
type FieldName = keyof Fields;

/** The stored fields of an address (trimmed); the optional ones may be absent in a create. */
export type AddressFields = {
  [K in FieldName as Fields[K]['text'] extends 'required' ? Fields[K]['stored'] : never]: string;
} & {
  [K in FieldName as Fields[K]['text'] extends 'optional' ? Fields[K]['stored'] : never]?: string;
};

export const FIELD_ENTRIES = Object.entries(ADDRESS_FIELDS) as Array<[FieldName, AddressField]>;

/** Trimmed values of the fields present in the body; required texts must not be blank. */
export function addressFields(body: CreateAddressBody): AddressFields;
export function addressFields(body: UpdateAddressBody): Partial<AddressFields>;
export function addressFields(body: UpdateAddressBody): Partial<AddressFields> {
  const fields: Record<string, string> = {};
  for (const [name, field] of FIELD_ENTRIES) {
    const value = body[name];
    if (value === undefined) continue;
    fields[field.stored] =
      field.text === 'required' ? requiredText(value, `body.${name}`) : value.trim();
  }
  return fields;
}
