import type { SubscribeBody } from '@dogshop/contracts/shop';
import { badRequest, conflict, notFound } from '@dogshop/service-kit';
import type { Db } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.js';
import { optionalText } from '../domain/text.js';
import { isUniqueViolation } from './prisma-errors.js';

type Tx = Prisma.TransactionClient;

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
      const existing = await tx.newsletterSubscriber.findUnique({
        where: { email: body.email },
        select: { id: true },
      });
      let subscriberId: number;
      if (existing) {
        // Conditional, so that of two concurrent re-subscriptions only one re-activates.
        const reactivated = await tx.newsletterSubscriber.updateMany({
          where: { id: existing.id, active: false },
          data: { ...fields, active: true, subscribedAt: new Date(), unsubscribedAt: null },
        });
        if (reactivated.count === 0) throw conflict(`email ${body.email} is already subscribed`);
        subscriberId = existing.id;
      } else {
        const created = await tx.newsletterSubscriber.create({
          data: { email: body.email, ...fields },
          select: { id: true },
        });
        subscriberId = created.id;
      }
      await tx.customer.updateMany({ where: { email: body.email }, data: { newsletter: true } });
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
    await tx.customer.updateMany({ where: { email }, data: { newsletter: false } });
  });
}

/**
 * Starts (or re-activates) the subscription of an account's address, for registration and profile
 * updates; an already active subscription is left as it is. Safe against a concurrent subscribe:
 * the insert skips a row that appeared meanwhile.
 */
export async function startSubscription(
  tx: Tx,
  subscriber: { email: string; firstName: string; lastName: string },
): Promise<void> {
  const { email, firstName, lastName } = subscriber;
  const reactivated = await tx.newsletterSubscriber.updateMany({
    where: { email, active: false },
    data: { firstName, lastName, active: true, subscribedAt: new Date(), unsubscribedAt: null },
  });
  if (reactivated.count === 0) {
    await tx.newsletterSubscriber.createMany({
      data: [{ email, firstName, lastName }],
      skipDuplicates: true,
    });
  }
}

/** True when an active subscription was ended. */
export async function endSubscription(tx: Tx, email: string): Promise<boolean> {
  const ended = await tx.newsletterSubscriber.updateMany({
    where: { email, active: true },
    data: { active: false, unsubscribedAt: new Date() },
  });
  return ended.count > 0;
}

export async function isActiveSubscriber(tx: Tx, email: string): Promise<boolean> {
  const found = await tx.newsletterSubscriber.findFirst({
    where: { email, active: true },
    select: { id: true },
  });
  return found !== null;
}

/** The requested ids, deduplicated; 400 naming every id that is not an active category. */
async function existingCategoryIds(db: Db, requested: number[]): Promise<number[]> {
  const ids = [...new Set(requested)];
  if (ids.length === 0) return [];
  const found = await db.category.findMany({
    where: { id: { in: ids }, active: true },
    select: { id: true },
  });
  const known = new Set(found.map((c) => c.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(`body.preferences.categories: unknown category ids ${unknown.join(', ')}`);
  }
  return ids;
}
