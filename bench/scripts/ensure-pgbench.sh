#!/usr/bin/env bash
# The harness's smoke test measures floors with pgbench, PostgreSQL's own load tool, which the
# embedded-postgres binaries do not include. Install the distribution's PostgreSQL (package
# `postgresql`, whose postgresql-common puts pgbench on PATH) when it is missing, as root or
# through sudo, so that `pnpm test` works on a fresh machine with Node.js and git.
set -euo pipefail
if command -v pgbench >/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "pgbench is needed by bench/test/smoke.test.ts; install PostgreSQL's client tools" >&2
  exit 1
fi
sudo=''
[ "$(id -u)" -eq 0 ] || sudo='sudo'
echo "installing postgresql (for pgbench) for the benchmark harness's smoke test" >&2
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
