#!/usr/bin/env bash
#! Installs Debian's chromium for the browser tests, if it is not there yet (idempotent).
# Browser tests use /usr/bin/chromium through playwright-core; no tool may download its own browser here.
set -euo pipefail

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends chromium
fi

/usr/bin/chromium --version
