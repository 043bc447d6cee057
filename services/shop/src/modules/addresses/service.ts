import type { Address, CreateAddressBody, UpdateAddressBody } from '@dogshop/contracts/shop';
import { conflict, notFound } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/prisma-errors.js';
import { addressFields } from './fields.js';
import { addressToDto } from './mapper.js';
import {
  clearDefault,
  countAddresses,
  deleteOwnAddress,
  insertAddress,
  isOwnAddress,
  lockCustomer,
  updateAddressRow,
} from './repository.js';

/** Enough for home, work and a few holiday spots; a cap keeps one account from growing unbounded. */
export const MAX_ADDRESSES_PER_CUSTOMER = 20;

export async function createAddress(
  db: Db,
  customerId: number,
  body: CreateAddressBody,
): Promise<Address> {
  const fields = addressFields(body);
  return inAddressBook(db, customerId, async (tx) => {
    if ((await countAddresses(tx, customerId)) >= MAX_ADDRESSES_PER_CUSTOMER) {
      throw conflict(
        `A customer can keep at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses; delete one first`,
      );
    }
    if (body.is_default) await clearDefault(tx, customerId);
    return addressToDto(await insertAddress(tx, customerId, fields, body.is_default ?? false));
  });
}

export async function updateAddress(
  db: Db,
  customerId: number,
  addressId: number,
  body: UpdateAddressBody,
): Promise<Address> {
  const fields = addressFields(body);
  return inAddressBook(db, customerId, async (tx) => {
    // Another customer's address answers as missing: its existence is none of this caller's business.
    if (!(await isOwnAddress(tx, customerId, addressId))) throw addressNotFound(addressId);
    if (body.is_default) await clearDefault(tx, customerId, addressId);
    return addressToDto(await updateAddressRow(tx, addressId, fields, body.is_default));
  });
}

/** Deleting the default address leaves the customer without one; no other address is promoted. */
export async function deleteAddress(db: Db, customerId: number, addressId: number): Promise<void> {
  if (!(await deleteOwnAddress(db, customerId, addressId))) throw addressNotFound(addressId);
}

/**
 * Runs an address-book change with the customer's row locked, so concurrent changes of one
 * customer's addresses take turns: the 20-address cap and the single default cannot be raced.
 * The partial unique index `addresses_one_default_per_customer` backs the latter up (409).
 */
async function inAddressBook<T>(
  db: Db,
  customerId: number,
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  try {
    return await db.$transaction(async (tx) => {
      if (!(await lockCustomer(tx, customerId))) {
        throw notFound(`Customer ${customerId} not found`);
      }
      return change(tx);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('Another default address was set at the same time; retry');
    throw error;
  }
}

const addressNotFound = (addressId: number) => notFound(`Address ${addressId} not found`);
