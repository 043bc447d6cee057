import type { FastifyInstance } from 'fastify';
import type { ShopConfig } from './config.js';
import { createApiKey, listApiKeys, registerApiKey } from './modules/api-keys/service.js';
import { demoCatalogue, importCatalogue } from './modules/catalogue-import/service.js';

/**
 * Start-up chores: load the demo catalogue into an empty shop (unless SEED_DEMO=false), register
 * SHOP_API_KEY, and on a shop with no key at all print a freshly created development key.
 */
export async function prepareFirstStart(
  app: FastifyInstance,
  config: Pick<ShopConfig, 'seedDemo' | 'apiKey' | 'env'>,
): Promise<void> {
  if (config.seedDemo && (await app.db.product.count()) === 0) {
    const summary = await importCatalogue(app.db, demoCatalogue());
    app.log.info(summary, 'loaded the demo catalogue into the empty shop');
  }
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
