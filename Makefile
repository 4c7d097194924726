# Two commands for a newcomer: `make lab` and `make test`. Everything lives in .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
PIP := $(BIN)/python -m pip install --quiet
# Jupyter refuses to run as root unless told; containers and some lab machines run as root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test test-deps test-fast test-browser site lite bench reproduce clean help solutions

help:
	@echo "make lab           create .venv (once) with the lab extra and start JupyterLab on notebooks/"
	@echo "make test          create/refresh .venv with the test extra; ruff, mypy, unit tests, doctests, every notebook (nbval)"
	@echo "make test-deps     unit tests, doctests and nbval again with the oldest and the newest allowed dependencies"
	@echo "make test-browser  build the site and JupyterLite, test them; drive JupyterLab and the site in headless Chromium"
	@echo "make site          the course as a static website in site/_build/html (committed outputs, no execution)"
	@echo "make lite          the course in JupyterLite (Python in the browser) in site/_build/html/lite"
	@echo "make solutions     solution notebooks for lecturers in solutions/ (git-ignored, never published)"
	@echo "make bench         slider latency, reconstruction scaling, trees; writes benchmarks/RESULTS.md"
	@echo "make reproduce     python -m ppdm_edu reproduce all --quick (reports/)"

# Stamp files: a second `make lab` reuses the environment; editing pyproject.toml refreshes it.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# `pip install .` is the library alone; the notebooks need the [lab] extra (JupyterLab, ipywidgets).
$(VENV)/.lab-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e ".[lab]"
	touch $@

# The test extra includes the lab extra, so it satisfies `make lab` too.
$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e ".[test]"
	touch $@ $(VENV)/.lab-installed

$(VENV)/.bench-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e ".[test,bench]"
	touch $@

# The browser tests also check the website and the JupyterLite build, hence the site extra.
# (It holds the test and lab extras too, so it satisfies `make test` and `make lab`.)
$(VENV)/.browser-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e ".[test,browser,site]"
	touch $@ $(VENV)/.site-installed $(VENV)/.test-installed $(VENV)/.lab-installed

$(VENV)/.site-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e ".[site]"
	touch $@

# JupyterLab's user settings and workspaces live inside .venv, not ~/.jupyter, and are reset on
# every start (tools/lab_settings.py): the deck is off (jupyterlab-slideshow writes "active": true
# when one starts) and there is no news pop-up. The package's server extension (ppdm_edu/_lab_reset.py)
# turns the deck off on every page load too; `pip install -e` switches it on (the wheel's shared
# data: .venv/etc/jupyter/jupyter_server_config.d/ppdm_edu.json).
LAB_USER := $(VENV)/lab-user
lab: $(VENV)/.lab-installed
	@# Rooted at the repository (README, reports/ reachable from the file browser), start notebook open;
	@# listening on this machine only (--ip), whatever jupyter_server's defaults or a config file say.
	$(BIN)/python tools/lab_settings.py $(LAB_USER)/settings
	JUPYTERLAB_SETTINGS_DIR=$(LAB_USER)/settings JUPYTERLAB_WORKSPACES_DIR=$(LAB_USER)/workspaces \
	$(BIN)/jupyter lab --no-browser --ServerApp.root_dir=. --ip=127.0.0.1 --port=$(PORT) $(ROOT_FLAG) \
		--LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb

# pytest on every core (pytest-xdist): --dist loadfile keeps a notebook's cells (nbval) and a module's
# doctests on one worker, in order. PYTEST_WORKERS=0 runs in this process (a debugger, -x, -s).
PYTEST_WORKERS ?= auto
XDIST := $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist loadfile)
# The browser tests wait on pages and kernels more than they compute: each worker drives its own
# JupyterLab server and Chromium, and the ten notebooks of test_notebooks_in_browser are shared
# out one by one (--dist load).
XDIST_BROWSER := $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist load)

# Lint (ruff, rule set in pyproject.toml), type-check (mypy, [tool.mypy] in pyproject.toml), compute the
# panels' twins the cache lacks on every core (site/_twins.py: tests/test_twins.py then reads them, no
# timed test computes one), then one pytest run over testpaths (pyproject.toml):
# tests/ (unit tests, numpydoc validation), notebooks/ (nbval) and ppdm_edu/ (doctests).
# All always run; the target fails if any fails. ci/stage records each one's time for .ci/run.
test: $(VENV)/.test-installed
	@status=0; \
	ci/stage lint $(BIN)/ruff check ppdm_edu tests benchmarks || status=1; \
	ci/stage types $(BIN)/python -m mypy ppdm_edu || status=1; \
	ci/stage twins $(BIN)/python site/_twins.py || status=1; \
	ci/stage pytest $(BIN)/python -m pytest -m "not browser" $(XDIST) --durations=10 \
		--junitxml=artifacts/junit-venv.xml || status=1; \
	exit $$status

# The same suite (no browser) with every dependency at its lowest allowed version and at the newest
# release (.venv-oldest, .venv-newest; see ci/test-deps.sh).
test-deps:
	PYTHON=$(PYTHON) bash ci/test-deps.sh

# Unit tests and doctests, no notebooks.
test-fast: $(VENV)/.test-installed
	@status=0; \
	$(BIN)/ruff check ppdm_edu tests benchmarks || status=1; \
	$(BIN)/python -m pytest -m "not browser" $(XDIST) tests ppdm_edu || status=1; \
	exit $$status

# Builds the site and the JupyterLite site (about 1.5 min), then tests them (tests/test_site.py)
# and drives JupyterLab and the site in Chromium (tests/browser/).
test-browser: $(VENV)/.browser-installed
	ci/stage site $(BIN)/python site/build.py
	ci/stage lite $(BIN)/python site/lite.py
	ci/stage browser $(BIN)/python -m pytest -m browser $(XDIST_BROWSER) tests/test_site.py tests/browser \
		--junitxml=artifacts/junit-browser.xml

# The course website: Sphinx + myst-nb from the committed notebooks (never executed), -W, offline.
site: $(VENV)/.site-installed
	$(BIN)/python site/build.py

# JupyterLite into site/_build/html/lite (needs PyPI for the wheels; Pyodide loads from its CDN at run time).
lite: $(VENV)/.site-installed
	$(BIN)/python site/lite.py

# Solution notebooks for lecturers (reference solutions filled in) in solutions/, git-ignored and
# never published by make site / make lite.
solutions: $(VENV)/.lab-installed
	$(BIN)/python site/solutions.py

bench: $(VENV)/.bench-installed
	$(BIN)/python benchmarks/run.py

reproduce: $(VENV)/.lab-installed
	$(BIN)/python -m ppdm_edu reproduce all --quick

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
