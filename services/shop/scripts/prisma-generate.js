// Runs `prisma generate` offline: points Prisma's engine check at a stub (see schema-engine-stub.sh).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const result = spawnSync('prisma', ['generate', '--no-hints'], {
  cwd: path.join(here, '..'),
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: path.join(here, 'schema-engine-stub.sh'),
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(result.status ?? 1);
