import type { Address, CreateAddressBody, UpdateAddressBody } from '@dogshop/contracts/shop';
import { conflict, notFound } from '@dogshop/service-kit';
import type { Db } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.js';
import { optionalText, requiredText } from '../domain/text.js';
import { isUniqueViolation } from './prisma-errors.js';

type Tx = Prisma.TransactionClient;

/** Enough for home, work and a few holiday spots; a cap keeps one account from growing unbounded. */
export const MAX_ADDRESSES_PER_CUSTOMER = 20;

/** Default address first, then in the order they were added. */
export const addressOrder = [
  { isDefault: 'desc' },
  { id: 'asc' },
] satisfies Prisma.AddressOrderByWithRelationInput[];

type AddressRow = Prisma.AddressGetPayload<object>;

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

export async function createAddress(
  db: Db,
  customerId: number,
  body: CreateAddressBody,
): Promise<Address> {
  const fields = addressFields(body);
  return inAddressBook(db, customerId, async (tx) => {
    const count = await tx.address.count({ where: { customerId } });
    if (count >= MAX_ADDRESSES_PER_CUSTOMER) {
      throw conflict(
        `A customer can keep at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses; delete one first`,
      );
    }
    if (body.is_default) await clearDefault(tx, customerId);
    const row = await tx.address.create({
      data: { ...fields, customerId, isDefault: body.is_default ?? false },
    });
    return addressToDto(row);
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
    await findOwnAddress(tx, customerId, addressId);
    if (body.is_default) await clearDefault(tx, customerId, addressId);
    const row = await tx.address.update({
      where: { id: addressId },
      data: { ...fields, isDefault: body.is_default },
    });
    return addressToDto(row);
  });
}

/** Deleting the default address leaves the customer without one; no other address is promoted. */
export async function deleteAddress(db: Db, customerId: number, addressId: number): Promise<void> {
  const deleted = await db.address.deleteMany({ where: { id: addressId, customerId } });
  if (deleted.count === 0) throw addressNotFound(addressId);
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
      const locked = await tx.$queryRaw<
        unknown[]
      >`SELECT id FROM customers WHERE id = ${customerId} FOR UPDATE`;
      if (locked.length === 0) throw notFound(`Customer ${customerId} not found`);
      return change(tx);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('Another default address was set at the same time; retry');
    throw error;
  }
}

async function findOwnAddress(tx: Tx, customerId: number, addressId: number): Promise<void> {
  // Another customer's address answers as missing: its existence is none of this caller's business.
  const found = await tx.address.findFirst({
    where: { id: addressId, customerId },
    select: { id: true },
  });
  if (!found) throw addressNotFound(addressId);
}

const addressNotFound = (addressId: number) => notFound(`Address ${addressId} not found`);

async function clearDefault(tx: Tx, customerId: number, exceptId?: number): Promise<void> {
  await tx.address.updateMany({
    where: {
      customerId,
      isDefault: true,
      ...(exceptId !== undefined && { id: { not: exceptId } }),
    },
    data: { isDefault: false },
  });
}

interface AddressFields {
  firstName: string;
  lastName: string;
  company?: string;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  phone?: string;
}

/** Trimmed values of the fields present in the body; required texts must not be blank. */
function addressFields(body: CreateAddressBody): AddressFields;
function addressFields(body: UpdateAddressBody): Partial<AddressFields>;
function addressFields(body: UpdateAddressBody): Partial<AddressFields> {
  const required = (value: string | undefined, field: string) =>
    value === undefined ? undefined : requiredText(value, `body.${field}`);
  return {
    firstName: required(body.first_name, 'first_name'),
    lastName: required(body.last_name, 'last_name'),
    company: optionalText(body.company),
    address: required(body.address, 'address'),
    city: required(body.city, 'city'),
    postalCode: required(body.postal_code, 'postal_code'),
    country: required(body.country, 'country'),
    phone: optionalText(body.phone),
  };
}
