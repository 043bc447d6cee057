import type { Db, Tx } from '../../db/client.js';

export interface SubscriptionFields {
  firstName: string;
  lastName: string;
  categoryIds: number[];
  frequency: 'weekly' | 'monthly';
}

export async function findSubscriberId(tx: Tx, email: string): Promise<number | null> {
  const found = await tx.newsletterSubscriber.findUnique({
    where: { email },
    select: { id: true },
  });
  return found?.id ?? null;
}

/**
 * Re-activates an unsubscribed record with new fields; conditional, so that of two concurrent
 * re-subscriptions only one succeeds (false for the other, and for an active record).
 */
export async function reactivateSubscriber(
  tx: Tx,
  id: number,
  fields: SubscriptionFields,
): Promise<boolean> {
  const { count } = await tx.newsletterSubscriber.updateMany({
    where: { id, active: false },
    data: { ...fields, active: true, subscribedAt: new Date(), unsubscribedAt: null },
  });
  return count > 0;
}

export async function insertSubscriber(
  tx: Tx,
  email: string,
  fields: SubscriptionFields,
): Promise<number> {
  const created = await tx.newsletterSubscriber.create({
    data: { email, ...fields },
    select: { id: true },
  });
  return created.id;
}

/** Re-activates the address's unsubscribed record by e-mail; false when there is none. */
export async function reactivateByEmail(
  tx: Tx,
  subscriber: { email: string; firstName: string; lastName: string },
): Promise<boolean> {
  const { email, firstName, lastName } = subscriber;
  const { count } = await tx.newsletterSubscriber.updateMany({
    where: { email, active: false },
    data: { firstName, lastName, active: true, subscribedAt: new Date(), unsubscribedAt: null },
  });
  return count > 0;
}

/** Inserts a record unless one appeared meanwhile (a concurrent subscribe wins quietly). */
export async function insertSubscriberIfAbsent(
  tx: Tx,
  subscriber: { email: string; firstName: string; lastName: string },
): Promise<void> {
  await tx.newsletterSubscriber.createMany({ data: [subscriber], skipDuplicates: true });
}

/** True when an active subscription was ended (the record is kept with the time). */
export async function deactivateSubscriber(tx: Tx, email: string): Promise<boolean> {
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

/** The profile flag of a customer account with this address, if there is one. */
export async function setCustomerNewsletterFlag(
  tx: Tx,
  email: string,
  newsletter: boolean,
): Promise<void> {
  await tx.customer.updateMany({ where: { email }, data: { newsletter } });
}

/** Which of the ids are active categories. */
export async function findActiveCategoryIds(db: Db, ids: number[]): Promise<Set<number>> {
  const found = await db.category.findMany({
    where: { id: { in: ids }, active: true },
    select: { id: true },
  });
  return new Set(found.map((c) => c.id));
}
