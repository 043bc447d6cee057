// Jest loads global setup outside its module system; tsx runs the TypeScript (NodeNext imports).
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { setup } = await tsImport('./mongo-server.ts', import.meta.url);
  await setup();
}
