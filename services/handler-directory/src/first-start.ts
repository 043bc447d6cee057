import type { FastifyInstance } from 'fastify';
import type { DirectoryConfig } from './config.js';
import {
  countAccounts,
  createAccount,
  findAccountByUsername,
  randomPassword,
} from './modules/accounts/service.js';
import { fillMissingSearchText } from './modules/handlers/repository.js';
import { seedDemoDirectory } from './modules/handlers/service.js';

/**
 * Start-up chores: fill in the search text of handlers stored before it existed, load the demo
 * directory into an empty one (unless SEED_DEMO=false), create the
 * ADMIN_USERNAME account from ADMIN_PASSWORD when it does not exist (an existing account is left
 * as it is), and in development with no account at all create one with a random password that is
 * printed once.
 */
export async function prepareFirstStart(
  app: FastifyInstance,
  config: Pick<DirectoryConfig, 'seedDemo' | 'adminUsername' | 'adminPassword' | 'env'>,
): Promise<void> {
  const filled = await fillMissingSearchText(app.db);
  if (filled > 0) app.log.info({ handlers: filled }, 'filled in the search text of older handlers');
  if (config.seedDemo) {
    const count = await seedDemoDirectory(app.db, app.handlersChanged);
    if (count > 0) {
      app.log.info({ handlers: count }, 'loaded the demo directory into the empty database');
    }
  }
  if (config.adminPassword) {
    if (!(await findAccountByUsername(app.db, config.adminUsername))) {
      await createAccount(app.db, {
        username: config.adminUsername,
        password: config.adminPassword,
      });
      app.log.info({ admin: config.adminUsername }, 'created the ADMIN_USERNAME administrator');
    }
    return;
  }
  if ((await countAccounts(app.db)) > 0) return;
  if (config.env === 'production') {
    app.log.warn(
      'no administrator accounts: set ADMIN_USERNAME/ADMIN_PASSWORD or run `admin:create`',
    );
    return;
  }
  const password = randomPassword();
  await createAccount(app.db, { username: config.adminUsername, password });
  // Printed on stdout (not the redacted log) because this is the only time it can be seen.
  console.log(
    `\nDevelopment administrator (password shown once): ${config.adminUsername} / ${password}\n` +
      `Log in: curl -X POST localhost:3001/api/auth/login -H 'content-type: application/json' ` +
      `-d '{"username":"${config.adminUsername}","password":"${password}"}'\n`,
  );
}
