#!/usr/bin/env bash
#! Installs Debian's chromium for the browser tests, the sqlite3 shell the checkout journeys change
#! the dev database with, and python3-venv (the mail tests run aiosmtpd from PyPI in a virtual
#! environment of their own), if they are not there yet (idempotent).
# Browser tests use /usr/bin/chromium through playwright-core; no tool may download its own browser here.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

/usr/bin/chromium --version
