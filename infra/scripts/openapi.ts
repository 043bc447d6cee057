// Writes openapi/{shop,handler-directory,gateway}.json from the services' route schemas.
// `pnpm openapi` (repository root) builds the services first; `--check` writes nothing and exits 1
// when a committed file differs from what the code generates.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DOCUMENT_NAMES,
  OPENAPI_DIR,
  REPO_ROOT,
  documentPath,
  generateDocuments,
  readCommittedDocument,
  serializeDocument,
} from './openapi-documents.js';

const check = process.argv.includes('--check');
const documents = await generateDocuments();
let stale = 0;
await mkdir(OPENAPI_DIR, { recursive: true });
for (const name of DOCUMENT_NAMES) {
  const text = serializeDocument(documents[name]);
  const file = path.relative(REPO_ROOT, documentPath(name));
  if ((await readCommittedDocument(name)) === text) {
    console.log(`${file}: up to date`);
  } else if (check) {
    stale += 1;
    console.error(`${file}: differs from the code; run \`pnpm openapi\` and commit the result`);
  } else {
    await writeFile(documentPath(name), text);
    console.log(`${file}: written`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
