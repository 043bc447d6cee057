import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const { teardown } = await tsImport('./mongo-server.ts', import.meta.url);
  await teardown();
}
