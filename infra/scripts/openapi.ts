// Writes openapi/{shop,handler-directory,gateway}.json from the services' route schemas, and the
// client types openapi-typescript makes of each (infra/clients/generated/).
// `pnpm openapi` (repository root) builds the services first; `--check` writes nothing and exits 1
// when a committed file differs from what the code generates.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CLIENT_TYPES_DIR,
  DOCUMENT_NAMES,
  OPENAPI_DIR,
  REPO_ROOT,
  clientTypes,
  clientTypesPath,
  documentPath,
  generateDocuments,
  readCommittedClientTypes,
  readCommittedDocument,
  serializeDocument,
} from './openapi-documents.js';

const check = process.argv.includes('--check');
const documents = await generateDocuments();
let stale = 0;
await mkdir(OPENAPI_DIR, { recursive: true });
await mkdir(CLIENT_TYPES_DIR, { recursive: true });

/** Writes `text` to `file` unless it holds it already; with --check only reports. */
async function update(file: string, committed: string | undefined, text: string) {
  const shown = path.relative(REPO_ROOT, file);
  if (committed === text) {
    console.log(`${shown}: up to date`);
  } else if (check) {
    stale += 1;
    console.error(`${shown}: differs from the code; run \`pnpm openapi\` and commit the result`);
  } else {
    await writeFile(file, text);
    console.log(`${shown}: written`);
  }
}

for (const name of DOCUMENT_NAMES) {
  const text = serializeDocument(documents[name]);
  await update(documentPath(name), await readCommittedDocument(name), text);
  await update(
    clientTypesPath(name),
    await readCommittedClientTypes(name),
    await clientTypes(name, text),
  );
}
process.exitCode = stale > 0 ? 1 : 0;
