import type { Address } from '@dogshop/contracts/shop';
import { FIELD_ENTRIES } from './fields.js';
import type { AddressRow } from './repository.js';

/** A stored address as the API shows it: id, the fields of fields.ts, whether it is the default. */
export function addressToDto(row: AddressRow): Address {
  const address: Record<string, unknown> = { id: row.id };
  for (const [name, field] of FIELD_ENTRIES) address[name] = row[field.stored];
  address.is_default = row.isDefault;
  return address as Address;
}
