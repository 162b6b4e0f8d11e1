# Two commands do everything on a fresh Debian machine with Python 3.11+:
#   make build   set up .venv if needed, then build every output from rules_src/ into build/
#   make test    set up what the tests need (venv, test packages, chromium, bubblewrap, libharfbuzz-subset0), then
#                run them all
#   make lint    ruff (lint and format) and the import layers; `make test` runs it first
#   make test-fast  in about a minute on 2 cores: every test that needs no build (site or PDF), no browser, no long fuzzing
#   make mutation  mutation testing of the model, validation, pipeline and generic mechanics: killed / total
#   make mutation-again  only the mutants the last run did not kill, against the tests as they are now
#   make mutation-resume  go on with a `make mutation` that was stopped: only the mutants it has not checked yet
#   make mutation-sample  the score estimated from 150 mutants drawn at random, with its 95% interval
#   make coverage  the whole suite under coverage.py (branch, child processes too), then the total for generator/
#   make data-mutation  change each value of the sample rules one at a time; list every change no test caught
#   make pictures  PNGs of each output kind from build/ into docs/pictures/ (builds first if build/ is missing)
# The venv's interpreter: Debian's own python3 when it is 3.11 or newer (Debian builds it with PGO and LTO; the
# tests take about 8% less CPU under it than under a plain source build such as pyenv's), else python3 on PATH.
# `make PYTHON=python3.12 ...` chooses another when .venv/ is made.
PYTHON ?= $(shell /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && echo /usr/bin/python3 || echo python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.rulepress-installed

.PHONY: build test test-fast lint check browser wall print-libraries clean pictures mutation mutation-again mutation-resume mutation-sample coverage data-mutation

# Set-up steps are one line each; pip is quiet (its errors still show), the build prints a progress
# bar and its summary: no library logs on a first run. The editable install puts the checkout on Python's path (a
# line in a .pth file, `editable_mode=compat`), not an import hook: the hook's import cost every Python this venv
# starts 14 ms (25 ms -> 11 ms for `python -c pass`), the tests' hundreds of commands and walled hosts among them.
EDITABLE := --config-settings editable_mode=compat
$(STAMP): pyproject.toml constraints.txt Makefile
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "rulepress needs Python 3.11 or newer; set PYTHON=python3.11")'
	@test -x $(PY) || { echo "set-up: creating $(VENV)/ with $(PYTHON)"; bash scripts/make-venv.sh $(PYTHON) $(VENV); }
	@echo "set-up: installing rulepress and its packages into $(VENV)/ (pinned by constraints.txt)"
	@$(PY) -m pip install --quiet --disable-pip-version-check --no-input -c constraints.txt $(EDITABLE) -e '.[test]'
	@touch $@

# The engine's bytecode is compiled here, where it can be written: behind the wall its folder is read-only,
# so a walled worker would otherwise compile every module again each time it starts.
build: $(STAMP) wall print-libraries
	@$(PY) -m compileall -q -x 'scaffold/(overlay_)?template/' generator
	@echo "building rules_src/ into build/"
	@$(VENV)/bin/rulepress build

check: $(STAMP)
	@$(VENV)/bin/rulepress check

browser: $(STAMP)
	@bash scripts/ensure-chromium.sh $(PY)

wall:
	@bash scripts/ensure-wall.sh

print-libraries:
	@bash scripts/ensure-print-libraries.sh

# Two pytest-xdist workers; the sample build is made once per run and shared (tests/conftest.py). A worker that runs
# out of tests takes some of the other's (worksteal): a long test near the end no longer leaves one core idle (test-fast
# 56 s -> 53 s here). Pytest keeps its rewritten test modules as bytecode, so a second run does not parse every test
# again (even where the shell says PYTHONDONTWRITEBYTECODE).
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest --dist worksteal

# The tests' temporary folders are in memory where the machine has room (scripts/in-memory-tmp.sh says why).
test: $(STAMP) browser wall print-libraries lint
	@echo "testing: every test, on 2 workers"
	@bash scripts/in-memory-tmp.sh env $(PYTEST) -n 2

# test-fast runs on three workers: a third of its time its tests wait (on a walled host starting, a watched file, a
# daemon), and a third worker fills those waits (77 s -> 73 s on 2 cores); the whole suite keeps its cores busy with
# two (a third measured no faster, 759 s -> 770 s).
test-fast: $(STAMP) wall print-libraries
	@echo "testing: every test that needs no build, browser or long fuzzing, on 3 workers"
	@bash scripts/in-memory-tmp.sh env $(PYTEST) -n 3 -m "not browser and not build and not fuzz"

# ruff's settings are in pyproject.toml [tool.ruff]; the import layers in scripts/import_layers.py
lint: $(STAMP)
	@echo "lint: ruff (lint and format) and the import layers"
	@$(VENV)/bin/ruff check --quiet .
	@$(VENV)/bin/ruff format --check --quiet .
	@$(PY) scripts/import_layers.py generator

# mutmut's settings (what it mutates; the fast tests it runs, by marker) are in pyproject.toml [tool.mutmut];
# its working copy mutants/ is git-ignored. Two workers: the machine is shared. The report lists every
# mutant left alive that docs/mutation-equivalents.md does not explain, and every explanation that matched none.
MUTATION_STAMP := $(VENV)/.rulepress-mutation-installed
$(MUTATION_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt $(EDITABLE) -e '.[test,mutation]'
	touch $@

# `make mutation-again` runs only the mutants the last run checked and did not kill, against the tests as they are
# now (mutmut maps the new tests to functions first). A whole `make mutation` takes many hours on two cores (each
# mutant that survives runs every fast test that reaches its function); `make mutation-sample` estimates the score in
# about half an hour: a first run of the keys' first mutants makes every mutant and maps the tests, then the mutants
# drawn (MUTATION_SAMPLE of them, by MUTATION_SEED) are run, and the report says what they tell of all.
mutation-again: $(MUTATION_STAMP)
	@test -d mutants || { echo "no mutants/ here: run make mutation first"; exit 1; }
	@date -u +"mutation re-run started %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(VENV)/bin/mutmut run --max-children 2 $$($(PY) scripts/mutation_report.py --not-killed) > mutants.log 2>&1 \
		|| (tail -n 40 mutants.log; exit 1)
	@date -u +"mutation re-run ended %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(PY) scripts/mutation_report.py

# `make mutation-resume` goes on with a whole run that was stopped (Ctrl-C, the machine shut down): mutmut keeps each
# verdict as it is given, so only the mutants not yet checked are run, and those of any function whose code has
# changed since (mutmut keeps a hash of each function and forgets the verdicts of one that changed). The run's hours
# can then be spread over several sittings.
mutation-resume: $(MUTATION_STAMP)
	@test -d mutants || { echo "no mutants/ here: run make mutation first"; exit 1; }
	@date -u +"mutation run resumed %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(VENV)/bin/mutmut run --max-children 2 >> mutants.log 2>&1 || (tail -n 40 mutants.log; exit 1)
	@date -u +"mutation run ended %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(PY) scripts/mutation_report.py

MUTATION_SAMPLE ?= 150
MUTATION_SEED ?= 1
mutation-sample: $(MUTATION_STAMP)
	rm -rf mutants
	@date -u +"mutation sample started %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(VENV)/bin/mutmut run --max-children 2 "generator.keys.*__mutmut_1" > mutants.log 2>&1 || (tail -n 40 mutants.log; exit 1)
	$(PY) scripts/mutation_report.py --sample $(MUTATION_SAMPLE) --seed $(MUTATION_SEED) > mutants/sample.txt
	$(VENV)/bin/mutmut run --max-children 2 $$(cat mutants/sample.txt) >> mutants.log 2>&1 || (tail -n 40 mutants.log; exit 1)
	@date -u +"mutation sample ended %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(PY) scripts/mutation_report.py --estimate mutants/sample.txt

mutation: $(MUTATION_STAMP)
	rm -rf mutants
	@date -u +"mutation run started %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(VENV)/bin/mutmut run --max-children 2 > mutants.log 2>&1 || (tail -n 40 mutants.log; exit 1)
	@date -u +"mutation run ended %H:%M:%S UTC; load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(PY) scripts/mutation_report.py

# The second run counts the code a normal run starts behind the wall (walled render workers, the examples' host),
# which coverage cannot write from: the tests that reach it, run again with the wall off.
WALL_OFF_TESTS := tests/examples tests/render tests/pipeline tests/rulesets tests/mechanics tests/serve rules_src
coverage: $(STAMP) browser
	rm -rf .coverage-data && mkdir .coverage-data
	$(PY) -m coverage run -m pytest -n 2 -p no:cacheprovider
	RULEPRESS_WALL=off $(PY) -m coverage run -m pytest -n 2 -p no:cacheprovider -m "not browser" $(WALL_OFF_TESTS)
	$(PY) -m coverage combine --quiet
	$(PY) -m coverage report

data-mutation: $(STAMP)
	$(PY) scripts/data_mutation.py

pictures: $(STAMP) browser
	test -d build/site || $(MAKE) build
	$(PY) scripts/pictures.py --build build --out docs/pictures

clean:
	rm -rf build $(VENV)
