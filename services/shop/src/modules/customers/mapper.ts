import type { Profile } from '@dogshop/contracts/shop';
import { addressToDto } from '../addresses/mapper.js';
import type { ProfileRow } from './repository.js';

export function profileToDto(row: ProfileRow): Profile {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    phone: row.phone,
    newsletter: row.newsletter,
    created_at: row.createdAt.toISOString(),
    // Registration logs the customer in, so this is set; a row made outside the API shows its creation.
    last_login: (row.lastLogin ?? row.createdAt).toISOString(),
    addresses: row.addresses.map(addressToDto),
  };
}
