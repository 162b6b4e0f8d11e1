# Two commands do everything on a fresh Debian machine with Python 3.11+:
#   make build   set up .venv if needed, then build every output from rules_src/ into build/
#   make test    set up what the tests need (venv, test packages, chromium), then run them all
#   make coverage  the whole suite under coverage.py (branch, child processes too), then the total for generator/
#   make data-mutation  change each value of the sample rules one at a time; list every change no test caught
#   make pictures  PNGs of each output kind from build/ into docs/pictures/ (builds first if build/ is missing)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.rulepress-installed

.PHONY: build test check browser clean pictures coverage data-mutation

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "rulepress needs Python 3.11 or newer; set PYTHON=python3.11")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	touch $@

build: $(STAMP)
	$(VENV)/bin/rulepress build

check: $(STAMP)
	$(VENV)/bin/rulepress check

browser:
	@bash scripts/ensure-chromium.sh

test: $(STAMP) browser
	$(PY) -m pytest

coverage: $(STAMP) browser
	rm -f .coverage .coverage.*
	$(PY) -m coverage run -m pytest -p no:cacheprovider
	$(PY) -m coverage combine --quiet
	$(PY) -m coverage report

data-mutation: $(STAMP)
	$(PY) scripts/data_mutation.py

pictures: $(STAMP) browser
	test -d build/site || $(MAKE) build
	$(PY) scripts/pictures.py --build build --out docs/pictures

clean:
	rm -rf build $(VENV)
