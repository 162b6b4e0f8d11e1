#!/usr/bin/env bash
# usage: apt-install.sh PACKAGE...: Debian's packages, quietly. The package lists are read again only when the
# install fails without them (a fresh machine has none, or old ones): one update for a first `make`, not one a step.
set -u
install() { DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq "$@" >/dev/null; }
install "$@" 2>/dev/null || { apt-get update -qq >/dev/null && install "$@"; }
