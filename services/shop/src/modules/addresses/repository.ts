import type { Db, Tx } from '../../db/client.js';
import type { Address as AddressRow, Prisma } from '../../generated/prisma/client.js';
import type { AddressFields } from './fields.js';

export type { AddressRow };

/** Default address first, then in the order they were added. */
export const addressOrder = [
  { isDefault: 'desc' },
  { id: 'asc' },
] satisfies Prisma.AddressOrderByWithRelationInput[];

/**
 * Locks the customer's row for the rest of the transaction (address-book changes of one customer
 * take turns); false when there is no such customer.
 */
export async function lockCustomer(tx: Tx, customerId: number): Promise<boolean> {
  const locked = await tx.$queryRaw<
    unknown[]
  >`SELECT id FROM customers WHERE id = ${customerId} FOR UPDATE`;
  return locked.length > 0;
}

export const countAddresses = (tx: Tx, customerId: number): Promise<number> =>
  tx.address.count({ where: { customerId } });

export const insertAddress = (
  tx: Tx,
  customerId: number,
  fields: AddressFields,
  isDefault: boolean,
): Promise<AddressRow> => tx.address.create({ data: { ...fields, customerId, isDefault } });

export const updateAddressRow = (
  tx: Tx,
  addressId: number,
  fields: Partial<AddressFields>,
  isDefault: boolean | undefined,
): Promise<AddressRow> =>
  tx.address.update({ where: { id: addressId }, data: { ...fields, isDefault } });

/** True when the address exists and is the customer's. */
export async function isOwnAddress(
  tx: Tx,
  customerId: number,
  addressId: number,
): Promise<boolean> {
  const found = await tx.address.findFirst({
    where: { id: addressId, customerId },
    select: { id: true },
  });
  return found !== null;
}

/** True when the customer's address was deleted. */
export async function deleteOwnAddress(
  db: Db,
  customerId: number,
  addressId: number,
): Promise<boolean> {
  const deleted = await db.address.deleteMany({ where: { id: addressId, customerId } });
  return deleted.count > 0;
}

/** Clears the customer's default address (but `exceptId`'s). */
export async function clearDefault(tx: Tx, customerId: number, exceptId?: number): Promise<void> {
  await tx.address.updateMany({
    where: {
      customerId,
      isDefault: true,
      ...(exceptId !== undefined && { id: { not: exceptId } }),
    },
    data: { isDefault: false },
  });
}
