#!/usr/bin/env bash
# usage: ensure-chromium.sh [PYTHON]. Browser tests drive Debian's chromium through Playwright (never `playwright
# install`, which downloads a browser this machine cannot fetch); Playwright talks to it through its own Node.js
# driver, which needs libatomic1 (not on a minimal Debian). Install what is missing when we can.
set -u
python=${1:-}
driver_runs() {
  [ -z "$python" ] && return 0
  "$python" -c 'import pathlib, subprocess, sys, playwright
node = pathlib.Path(playwright.__file__).parent / "driver" / "node"
sys.exit(subprocess.run([str(node), "--version"], capture_output=True).returncode)' 2>/dev/null
}
wanted=""
[ -x /usr/bin/chromium ] || wanted="chromium"
driver_runs || wanted="$wanted libatomic1"
if [ -z "$wanted" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's ${wanted# } for the browser tests..."
  bash "$(dirname "$0")/apt-install.sh" $wanted || true
fi
problem=""
[ -x /usr/bin/chromium ] || problem="/usr/bin/chromium is missing (apt-get install chromium)"
driver_runs || problem="${problem:+$problem; }Playwright's driver does not start (apt-get install libatomic1)"
if [ -n "$problem" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: $problem: the browser tests cannot run on CI" >&2
    exit 1
  fi
  echo "warning: $problem, as root; the browser tests will be skipped" >&2
fi
exit 0
