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

test: $(STAMP)
	bash scripts/ensure-postgres.sh
	sh scripts/ensure-chromium.sh
	$(BIN)/python -m pytest -q -n 6 --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check exa_orch tests bench
	$(BIN)/ruff format --check exa_orch tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# Each benchmark exits 1 when it misses a target; run all three anyway, then fail if one did.
bench: $(STAMP)
	@status=0; for b in store gateway runtime; do \
		echo "$(BIN)/python bench/$$b.py"; $(BIN)/python bench/$$b.py || status=1; \
	done; exit $$status

# Both ends of the dependency ranges (needs the package index; see docs/dependencies.md).
dep-bounds:
	scripts/check-dep-bounds.sh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
