#!/usr/bin/env bash
# Some tests drive a real program that no npm package ships (nginx for the gateway, pgbench for the
# benchmark harness). This installs the Debian/Ubuntu package that provides it when it is missing
# (as root, or through sudo), so that `pnpm test` works on a fresh machine with Node.js and git.
#
#   ensure-apt-tool.sh <command> <apt package> <who needs it> [<path checked besides PATH>]
set -euo pipefail
command_name=$1 package=$2 needed_by=$3 extra_path=${4:-}
if command -v "$command_name" >/dev/null || { [ -n "$extra_path" ] && [ -x "$extra_path" ]; }; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "$command_name is needed by $needed_by; install it with your package manager" >&2
  exit 1
fi
sudo=''
[ "$(id -u)" -eq 0 ] || sudo='sudo'
# turbo runs the packages' test:setup side by side, and two apt-gets at once fail on dpkg's lock:
# one install at a time, and a tool a neighbour installed meanwhile is not installed again.
# The lock is this script itself (opened for reading: no file to create or own).
exec 9<"${BASH_SOURCE[0]}"
flock 9
if command -v "$command_name" >/dev/null || { [ -n "$extra_path" ] && [ -x "$extra_path" ]; }; then
  exit 0
fi
echo "installing $package (for $command_name, needed by $needed_by)" >&2
# The install waits for dpkg's lock when an apt run outside this script holds it (unattended
# upgrades) instead of failing at once.
apt_get=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300)
"${apt_get[@]}" update -qq
"${apt_get[@]}" install -y -qq --no-install-recommends "$package" >/dev/null
