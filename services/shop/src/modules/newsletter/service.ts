import type { SubscribeBody } from '@dogshop/contracts/shop';
import { badRequest, conflict, notFound } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/prisma-errors.js';
import { optionalText } from '../../domain/text.js';
import {
  deactivateSubscriber,
  findActiveCategoryIds,
  findSubscriberId,
  insertSubscriber,
  insertSubscriberIfAbsent,
  isActiveSubscriber,
  reactivateByEmail,
  reactivateSubscriber,
  setCustomerNewsletterFlag,
} from './repository.js';

export { isActiveSubscriber };

/**
 * Subscribes an address: new addresses get a record, a previously unsubscribed one is re-activated
 * (same id, new preferences), an active one is a 409. A customer with that address has their
 * profile's `newsletter` flag set in the same transaction.
 */
export async function subscribe(db: Db, body: SubscribeBody): Promise<{ subscriberId: number }> {
  const categoryIds = await existingCategoryIds(db, body.preferences?.categories ?? []);
  const fields = {
    firstName: optionalText(body.first_name) ?? '',
    lastName: optionalText(body.last_name) ?? '',
    categoryIds,
    frequency: body.preferences?.frequency ?? 'weekly',
  } as const;
  try {
    return await db.$transaction(async (tx) => {
      const existing = await findSubscriberId(tx, body.email);
      let subscriberId: number;
      if (existing !== null) {
        if (!(await reactivateSubscriber(tx, existing, fields))) {
          throw conflict(`email ${body.email} is already subscribed`);
        }
        subscriberId = existing;
      } else {
        subscriberId = await insertSubscriber(tx, body.email, fields);
      }
      await setCustomerNewsletterFlag(tx, body.email, true);
      return { subscriberId };
    });
  } catch (error) {
    // Two concurrent first subscriptions of one address: the loser's insert is refused.
    if (isUniqueViolation(error)) throw conflict(`email ${body.email} is already subscribed`);
    throw error;
  }
}

/** Ends an active subscription, keeping the record with the time of unsubscribing. */
export async function unsubscribe(db: Db, email: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const ended = await endSubscription(tx, email);
    if (!ended) throw notFound(`email ${email} is not subscribed`);
    await setCustomerNewsletterFlag(tx, email, false);
  });
}

/**
 * Starts (or re-activates) the subscription of an account's address, for registration and profile
 * updates, on the caller's transaction; an already active subscription is left as it is. Safe
 * against a concurrent subscribe: the insert skips a row that appeared meanwhile.
 */
export async function startSubscription(
  tx: Tx,
  subscriber: { email: string; firstName: string; lastName: string },
): Promise<void> {
  if (!(await reactivateByEmail(tx, subscriber))) {
    await insertSubscriberIfAbsent(tx, subscriber);
  }
}

/** True when an active subscription was ended (on the caller's transaction). */
export const endSubscription = (tx: Tx, email: string): Promise<boolean> =>
  deactivateSubscriber(tx, email);

/** The requested ids, deduplicated; 400 naming every id that is not an active category. */
async function existingCategoryIds(db: Db, requested: number[]): Promise<number[]> {
  const ids = [...new Set(requested)];
  if (ids.length === 0) return [];
  const known = await findActiveCategoryIds(db, ids);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(`body.preferences.categories: unknown category ids ${unknown.join(', ')}`);
  }
  return ids;
}
