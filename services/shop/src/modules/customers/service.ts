import type { Profile, RegisterBody, UpdateProfileBody } from '@dogshop/contracts/shop';
import {
  conflict,
  hashPassword,
  notFound,
  verifyAgainstDummy,
  verifyPassword,
  type LoginLimiter,
} from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { isRecordNotFound, isUniqueViolation } from '../../db/prisma-errors.js';
import { optionalText, requiredText } from '../../domain/text.js';
import { endSubscription, isActiveSubscriber, startSubscription } from '../newsletter/service.js';
import { profileToDto } from './mapper.js';
import {
  emailIsRegistered,
  findAccount,
  findCredentials,
  findNames,
  findProfile,
  insertCustomer,
  recordLogin,
  updateCustomer,
  type Account,
} from './repository.js';

export type { Account };

const alreadyRegistered = (email: string) => conflict(`email ${email} is already registered`);
/**
 * Creates the account, logged in (last_login is now). `newsletter: true` subscribes the address in
 * the same transaction; otherwise the flag mirrors a subscription the address may already have.
 */
export async function registerCustomer(db: Db, body: RegisterBody): Promise<Account> {
  const { email } = body;
  const firstName = requiredText(body.first_name, 'body.first_name');
  const lastName = requiredText(body.last_name, 'body.last_name');
  // Checked first so that a duplicate costs no password hashing; the unique index decides races.
  if (await emailIsRegistered(db, email)) throw alreadyRegistered(email);
  const passwordHash = await hashPassword(body.password);
  try {
    return await db.$transaction(async (tx) => {
      if (body.newsletter) await startSubscription(tx, { email, firstName, lastName });
      const newsletter = body.newsletter === true || (await isActiveSubscriber(tx, email));
      return insertCustomer(tx, {
        email,
        passwordHash,
        firstName,
        lastName,
        phone: optionalText(body.phone) ?? '',
        newsletter,
        lastLogin: new Date(),
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
  return limiter.login(address, email, () => checkCredentials(db, email, password));
}

/** The account (its login recorded) when the credentials are right, else null. */
async function checkCredentials(db: Db, email: string, password: string): Promise<Account | null> {
  const found = await findCredentials(db, email);
  const valid = found
    ? await verifyPassword(found.passwordHash, password)
    : await verifyAgainstDummy(password);
  if (!found || !valid) return null;
  // Deleted since it was read.
  if (!(await recordLogin(db, found.id))) return null;
  const { passwordHash: _hash, ...account } = found;
  return account;
}

/** The signed-in account of a bearer token's subject: an existing customer, else null. */
export async function accountOf(
  db: Db,
  subject: string,
): Promise<{ id: number; email: string } | null> {
  const id = Number(subject);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return findAccount(db, id);
}

export async function getProfile(db: Db, id: number): Promise<Profile> {
  const row = await findProfile(db, id);
  if (!row) throw notFound(`Customer ${id} not found`);
  return profileToDto(row);
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
      const current = await findNames(tx, id);
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
      await updateCustomer(tx, id, data);
    });
  } catch (error) {
    // The account was deleted between the read and the write.
    if (isRecordNotFound(error)) throw customerNotFound;
    throw error;
  }
}
