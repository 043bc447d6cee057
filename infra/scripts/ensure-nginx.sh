#!/usr/bin/env bash
# The gateway's end-to-end test runs a real nginx. Install Debian's nginx-light when it is missing
# (as root, or through sudo), so that `pnpm test` works on a fresh machine with Node.js and git.
set -euo pipefail
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then exit 0; fi
if ! command -v apt-get >/dev/null; then
  echo "nginx is needed by infra/test/gateway.e2e.test.ts; install it with your package manager" >&2
  exit 1
fi
sudo=''
[ "$(id -u)" -eq 0 ] || sudo='sudo'
echo "installing nginx-light for the gateway end-to-end test" >&2
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
