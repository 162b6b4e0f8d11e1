#!/usr/bin/env bash
# usage: make-venv.sh PYTHON FOLDER: the virtual environment `make` installs into. Debian keeps venv's pip apart
# from python3 itself (the python3.X-venv package, not on a fresh machine): install it when missing and we can.
set -u
python=$1
venv=$2
if "$python" -m venv "$venv" >/dev/null 2>&1; then exit 0; fi
rm -rf "$venv"
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && ! dpkg-query -W -f='${Status}' "python$version-venv" 2>/dev/null | grep -q "ok installed"; then
  echo "set-up: installing Debian's python$version-venv (what makes a virtual environment with pip)"
  bash "$(dirname "$0")/apt-install.sh" "python$version-venv" || true
fi
if "$python" -m venv "$venv"; then exit 0; fi
rm -rf "$venv"
echo "error: $python cannot make a virtual environment here; on Debian run apt-get install python$version-venv" \
  "(as root), or choose another Python with make PYTHON=..." >&2
exit 1
