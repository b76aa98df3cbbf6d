# Two commands set everything up on a machine with only Python 3.11 and pip:
#   make test   create .venv, install exa-orch with its dev extras, run the suite
#   make demo   create .venv, install, run the demo against the built-in Exa simulator
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck bench dep-bounds clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when the project's metadata changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m exa_orch.demo

# pytest-xdist workers: the suite mostly waits (on child processes, loopback HTTP, the simulator),
# so three per core the process may use (6 on a 2-core CI runner). WORKERS=n overrides.
WORKERS ?= $(shell $(PYTHON) -c "import os; print(min(16, 3 * len(os.sched_getaffinity(0))))")

test: $(STAMP)
	bash scripts/ensure-postgres.sh
	sh scripts/ensure-chromium.sh
	@# Bytecode for the package, so each `exa-orch serve` a test spawns loads it rather than
	@# compiling every module (it would, at every start, under PYTHONDONTWRITEBYTECODE=1).
	$(BIN)/python -m compileall -q exa_orch
	@# pytest caches each test module with its asserts rewritten (tests/**/__pycache__) only where
	@# bytecode may be written: without that, every xdist worker parses and rewrites all ~300 test
	@# modules at every run (~5 s of CPU each, 6 workers on 2 cores).
	@# Once, before the workers start: on a fresh clone all of them would rewrite every test module at
	@# the same moment (none finds the others' cache yet), ~6 CPU-s each. Collection errors, if any,
	@# are reported by the run below.
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -qq --collect-only -p no:cacheprovider > /dev/null || true
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder --durations=5

lint: $(STAMP)
	$(BIN)/ruff check exa_orch tests bench
	$(BIN)/ruff format --check exa_orch tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# Each benchmark exits 1 when it misses a target; run them all anyway, then fail if one did.
bench: $(STAMP)
	@status=0; for b in store gateway runtime startup simtiming watches; do \
		echo "$(BIN)/python bench/$$b.py"; $(BIN)/python bench/$$b.py || status=1; \
	done; exit $$status

# Both ends of the dependency ranges (needs the package index; see docs/dependencies.md).
dep-bounds:
	scripts/check-dep-bounds.sh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
