// Accounts for the page tests: made by the test admin through the API, and their set-password
// link opened and used in the page's form (web/lib/session.tsx).
import { expect } from '@jest/globals';
import type { CreateHandlerBody, Handler } from '@dogshop/contracts/handler-directory';
import type { Page } from 'playwright-core';
import type { TestApp } from '../support/app.js';
import { createHandler } from '../support/handlers.js';

/** An account made through the API as the test admin (`payload`: the `/api/accounts` body). */
export async function createAccount(app: TestApp, payload: object) {
  const res = await app.request({ method: 'POST', url: '/api/accounts', payload, as: app.admin });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: { id: string }; setPasswordToken?: string }>();
}

/**
 * A new handler account `username` bound to a new handler (`record`), with its one-time
 * set-password token.
 */
export async function handlerAccount(
  app: TestApp,
  username: string,
  record: Partial<CreateHandlerBody> = {},
): Promise<{ handler: Handler; id: string; token: string }> {
  const handler = await createHandler(app, record);
  const created = await createAccount(app, { username, role: 'handler', handlerId: handler._id });
  return { handler, id: created.data.id, token: created.setPasswordToken ?? '' };
}

/** The path of a set-password link to `page` (`/verzeichnis/mein-eintrag/` or `…/admin/`). */
export const setPasswordPath = (page: string, username: string, token: string) =>
  `${page}#${new URLSearchParams({ konto: username, passwort: token }).toString()}`;

/** Sets `password` through the set-password form the page shows. */
export async function setPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('Neues Passwort').fill(password);
  await page.getByLabel('Passwort wiederholen').fill(password);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
}
