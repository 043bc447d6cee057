import type { Address } from '@dogshop/contracts/shop';
import type { AddressRow } from './repository.js';

export function addressToDto(row: AddressRow): Address {
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    company: row.company,
    address: row.address,
    city: row.city,
    postal_code: row.postalCode,
    country: row.country,
    phone: row.phone,
    is_default: row.isDefault,
  };
}
