#!/usr/bin/env bash
# Browser tests drive Debian's chromium through Playwright (never `playwright install`,
# which downloads a browser this machine cannot fetch). Install it when missing and we can.
set -u
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium for the browser tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || true
fi
if [ ! -x /usr/bin/chromium ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: /usr/bin/chromium is missing and could not be installed; browser tests cannot run on CI" >&2
    exit 1
  fi
  echo "warning: /usr/bin/chromium is missing (run as root, or apt-get install chromium); browser tests will be skipped" >&2
fi
exit 0
