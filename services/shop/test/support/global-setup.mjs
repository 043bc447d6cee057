// Jest loads global setup outside its module system; tsx runs the TypeScript (NodeNext imports).
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const [database, browser] = await Promise.all([
    tsImport('./pg-server.ts', import.meta.url),
    tsImport('../pages/shared-browser.ts', import.meta.url),
  ]);
  await Promise.all([database.setup(), browser.setup()]);
}
