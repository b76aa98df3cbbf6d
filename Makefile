# Two commands set everything up on a machine with only Python 3.11 and pip:
#   make test   create .venv, install exa-orch with its dev extras, run the suite
#   make demo   create .venv, install, run the demo against the built-in Exa simulator
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean

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
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check exa_orch tests bench
	$(BIN)/ruff format --check exa_orch tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/store.py
	$(BIN)/python bench/gateway.py
	$(BIN)/python bench/runtime.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
