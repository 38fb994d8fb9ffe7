#!/usr/bin/env bash
#! Installs Debian's chromium for the browser tests, and the sqlite3 shell the shopper journeys read
#! the API's outbox with, if they are not there yet (idempotent).
# Browser tests use /usr/bin/chromium through playwright-core; no tool may download its own browser here.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

/usr/bin/chromium --version
