import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const INFRA_DIR = path.join(REPO_ROOT, 'infra');
export const serviceDir = (service: 'shop' | 'handler-directory') =>
  path.join(REPO_ROOT, 'services', service);
