import { randomBytes } from 'node:crypto';
import { HttpError } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import type { ShopConfig } from './config.js';
import { createApiKey, listApiKeys, registerApiKey } from './modules/api-keys/service.js';
import { demoCatalogue, importCatalogue } from './modules/catalogue-import/service.js';
import { createStaff, hasStaff } from './modules/staff/service.js';

/**
 * Start-up chores: load the demo catalogue into an empty shop (unless SEED_DEMO=false), register
 * SHOP_API_KEY, on a shop with no key at all print a freshly created development key, and on a
 * development shop without staff create an admin and print its password once (as the directory
 * does; in production the first one comes from `staff:create`).
 */
export async function prepareFirstStart(
  app: FastifyInstance,
  config: Pick<ShopConfig, 'seedDemo' | 'apiKey' | 'env'>,
): Promise<void> {
  if (config.seedDemo && (await app.db.product.count()) === 0) {
    const summary = await importCatalogue(app.db, demoCatalogue());
    app.log.info(summary, 'loaded the demo catalogue into the empty shop');
  }
  if (config.env !== 'production') await createFirstAdmin(app);
  if (config.apiKey) {
    await registerApiKey(app.db, 'SHOP_API_KEY', config.apiKey);
    return;
  }
  if (config.env !== 'production' && (await listApiKeys(app.db)).length === 0) {
    const { key } = await createApiKey(app.db, 'development');
    // Printed on stdout (not the redacted log) because this is the only time it can be seen.
    console.log(`\nDevelopment API key (shown once): ${key}\nUse it as: -H "X-API-Key: ${key}"\n`);
  }
}

/**
 * The first admin of a shop without staff, with a random password printed once on stdout (not
 * the redacted log): the only way into the back office until someone signs in and makes more. A
 * second replica starting at the same moment loses the race on the unique e-mail and skips it.
 */
async function createFirstAdmin(app: FastifyInstance): Promise<void> {
  if (await hasStaff(app.db)) return;
  const email = 'admin@shop.local';
  const password = randomBytes(18).toString('base64url');
  try {
    await createStaff(app.db, null, { email, name: 'Administrator', role: 'admin', password });
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 409) return;
    throw error;
  }
  console.log(
    `\nFirst shop administrator (password shown once): ${email} / ${password}\n` +
      `Sign in with: curl -X POST http://localhost:3000/admin/auth/login -H 'Content-Type: application/json' ` +
      `-d '{"email":"${email}","password":"${password}"}'\n`,
  );
}
