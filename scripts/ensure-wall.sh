#!/usr/bin/env bash
# Rules code and renderers run behind bubblewrap (Debian's `bubblewrap`, Flatpak's sandbox); the tests
# of the wall need it. Install it when missing and we can; on CI a missing or unusable wall fails the run.
set -u
works() {  # a sandbox with the /proc and /dev the wall mounts (a container may allow namespaces and not those)
  command -v bwrap >/dev/null &&
    bwrap --unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev -- /bin/true 2>/dev/null
}
if works; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's bubblewrap for the operating-system wall..."
  bash "$(dirname "$0")/apt-install.sh" bubblewrap || true
fi
if ! works; then
  if [ "${CI:-}" = "true" ]; then
    echo "error: bubblewrap (bwrap) is missing or cannot make a sandbox here; the wall's tests cannot run on CI" >&2
    exit 1
  fi
  echo "warning: bubblewrap (bwrap) is missing or unusable (run as root, or apt-get install bubblewrap); rules code runs behind the fence only" >&2
fi
exit 0
