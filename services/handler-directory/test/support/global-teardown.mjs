import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const [database, browser] = await Promise.all([
    tsImport('./mongo-server.ts', import.meta.url),
    tsImport('../pages/shared-browser.ts', import.meta.url),
  ]);
  await Promise.all([database.teardown(), browser.teardown()]);
}
