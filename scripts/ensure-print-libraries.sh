#!/usr/bin/env bash
# What WeasyPrint prints with, from Debian: Pango (it cannot run without it), the DejaVu fonts the templates name
# (DejaVu Sans and DejaVu Sans Condensed: in another font every sheet and card is laid out anew, and may not fit
# its page), and libharfbuzz-subset0, with which a PDF embeds its fonts' glyphs in C rather than with fontTools
# in Python (the same PDF, about a second sooner each). A fresh Debian machine may have none of them: install what
# is missing when we can (as root, with apt-get), and say what is still missing.
set -u
library() { ldconfig -p 2>/dev/null | grep -q "$1"; }
font() { find /usr/share/fonts /usr/local/share/fonts -name "$1" 2>/dev/null | grep -q .; }
missing() {
  library 'libpango-1\.0\.so\.0' || echo libpango-1.0-0
  library 'libpangoft2-1\.0\.so\.0' || echo libpangoft2-1.0-0
  font DejaVuSans.ttf || echo fonts-dejavu-core
  font DejaVuSansCondensed.ttf || echo fonts-dejavu-extra
  library 'libharfbuzz-subset\.so\.0' || echo libharfbuzz-subset0
}
wanted=$(missing)
if [ -z "$wanted" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's $(echo $wanted), which WeasyPrint prints PDFs with..."
  bash "$(dirname "$0")/apt-install.sh" $wanted || true
  wanted=$(missing)
fi
for package in $wanted; do
  case $package in
    libpango*) echo "error: $package is missing (apt-get install $package, as root): WeasyPrint cannot print without it" >&2 ;;
    fonts-*) echo "warning: $package is missing (apt-get install $package): PDFs are set in another font" >&2 ;;
    *) echo "note: $package is missing (apt-get install $package): PDFs take longer to write" >&2 ;;
  esac
done
case $wanted in *libpango*) exit 1 ;; esac
exit 0
