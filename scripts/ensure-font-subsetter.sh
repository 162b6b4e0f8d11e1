#!/usr/bin/env bash
# WeasyPrint embeds only the glyphs a PDF uses. With Debian's libharfbuzz-subset0 it cuts them out in C; without
# it, it falls back to fontTools, which reads every font's layout tables in Python for every PDF: the same text,
# about a second more per PDF. Install it when missing and we can; a build without it is slower, never wrong.
set -u
found() { ldconfig -p 2>/dev/null | grep -q 'libharfbuzz-subset\.so\.0'; }
if found; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's libharfbuzz-subset0, so PDFs embed their fonts' glyphs quickly..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libharfbuzz-subset0 >/dev/null) || true
fi
if ! found; then
  echo "note: libharfbuzz-subset0 is missing (run as root, or apt-get install libharfbuzz-subset0); PDFs take longer to write" >&2
fi
exit 0
