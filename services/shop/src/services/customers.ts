import type { Profile, RegisterBody, UpdateProfileBody } from '@dogshop/contracts/shop';
import {
  conflict,
  notFound,
  tooManyLoginFailures,
  unauthorized,
  type LoginLimiter,
} from '@dogshop/service-kit';
import type { Db } from '../db/client.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '@dogshop/service-kit';
import { optionalText, requiredText } from '../domain/text.js';
import { addressOrder, addressToDto } from './addresses.js';
import { endSubscription, isActiveSubscriber, startSubscription } from './newsletter.js';
import { isRecordNotFound, isUniqueViolation } from './prisma-errors.js';

/** What register and login answer with (the route adds the token). */
export interface Account {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
}

const accountSelect = { id: true, email: true, firstName: true, lastName: true } as const;

const alreadyRegistered = (email: string) => conflict(`email ${email} is already registered`);
const invalidCredentials = () => unauthorized('Invalid email or password');

/**
 * Creates the account, logged in (last_login is now). `newsletter: true` subscribes the address in
 * the same transaction; otherwise the flag mirrors a subscription the address may already have.
 */
export async function registerCustomer(db: Db, body: RegisterBody): Promise<Account> {
  const { email } = body;
  const firstName = requiredText(body.first_name, 'body.first_name');
  const lastName = requiredText(body.last_name, 'body.last_name');
  // Checked first so that a duplicate costs no password hashing; the unique index decides races.
  if (await db.customer.findUnique({ where: { email }, select: { id: true } }))
    throw alreadyRegistered(email);
  const passwordHash = await hashPassword(body.password);
  try {
    return await db.$transaction(async (tx) => {
      if (body.newsletter) await startSubscription(tx, { email, firstName, lastName });
      const newsletter = body.newsletter === true || (await isActiveSubscriber(tx, email));
      return tx.customer.create({
        data: {
          email,
          passwordHash,
          firstName,
          lastName,
          phone: optionalText(body.phone) ?? '',
          newsletter,
          lastLogin: new Date(),
        },
        select: accountSelect,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyRegistered(email);
    throw error;
  }
}

/**
 * Checks the credentials and records the login. Unknown e-mail and wrong password answer the same
 * 401 after the same amount of hashing work, so neither the body nor the timing tells them apart;
 * both count as failures for the limiter (429 once a limit is spent, without checking the password).
 */
export async function login(
  db: Db,
  limiter: LoginLimiter,
  address: string,
  email: string,
  password: string,
): Promise<Account> {
  const attempt = await limiter.attempt(address, email, () =>
    checkCredentials(db, email, password),
  );
  if (attempt.limited) {
    const seconds = attempt.retryAfterSeconds;
    throw tooManyLoginFailures(`Too many failed logins, retry in ${seconds} seconds`, seconds);
  }
  if (!attempt.account) throw invalidCredentials();
  return attempt.account;
}

/** The account (its login recorded) when the credentials are right, else null. */
async function checkCredentials(db: Db, email: string, password: string): Promise<Account | null> {
  const found = await db.customer.findUnique({
    where: { email },
    select: { ...accountSelect, passwordHash: true },
  });
  const valid = found
    ? await verifyPassword(found.passwordHash, password)
    : await verifyAgainstDummy(password);
  if (!found || !valid) return null;
  const recorded = await db.customer.updateMany({
    where: { id: found.id },
    data: { lastLogin: new Date() },
  });
  // Deleted since it was read.
  if (recorded.count === 0) return null;
  const { passwordHash: _hash, ...account } = found;
  return account;
}

export async function getProfile(db: Db, id: number): Promise<Profile> {
  const row = await db.customer.findUnique({
    where: { id },
    select: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      phone: true,
      newsletter: true,
      createdAt: true,
      lastLogin: true,
      addresses: { orderBy: addressOrder },
    },
  });
  if (!row) throw notFound(`Customer ${id} not found`);
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

/** Changes the given fields; `newsletter` subscribes or unsubscribes the address in the same transaction. */
export async function updateProfile(db: Db, id: number, body: UpdateProfileBody): Promise<void> {
  const data = {
    firstName:
      body.first_name === undefined ? undefined : requiredText(body.first_name, 'body.first_name'),
    lastName:
      body.last_name === undefined ? undefined : requiredText(body.last_name, 'body.last_name'),
    phone: optionalText(body.phone),
    newsletter: body.newsletter,
  };
  const customerNotFound = notFound(`Customer ${id} not found`);
  try {
    await db.$transaction(async (tx) => {
      const current = await tx.customer.findUnique({
        where: { id },
        select: { email: true, firstName: true, lastName: true },
      });
      if (!current) throw customerNotFound;
      // Subscriber row before customer row, the order the newsletter endpoints use too (no deadlock).
      if (body.newsletter === true) {
        await startSubscription(tx, {
          email: current.email,
          firstName: data.firstName ?? current.firstName,
          lastName: data.lastName ?? current.lastName,
        });
      } else if (body.newsletter === false) {
        await endSubscription(tx, current.email);
      }
      await tx.customer.update({ where: { id }, data });
    });
  } catch (error) {
    // The account was deleted between the read and the write.
    if (isRecordNotFound(error)) throw customerNotFound;
    throw error;
  }
}
