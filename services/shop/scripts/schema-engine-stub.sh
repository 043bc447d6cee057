#!/bin/sh
# Prisma's CLI insists on a native schema-engine binary even for `prisma generate`, which never
# runs it, and would download one at run time (not reachable in our offline builds). This stub
# satisfies that check. Migrations do not use it: they go through @prisma/schema-engine-wasm
# (see src/db/migrations.ts and `pnpm migrate`, `pnpm migrate:new`).
echo "schema-engine stub: use 'pnpm migrate' / 'pnpm migrate:new <name>' (WASM engine) instead" >&2
exit 1
