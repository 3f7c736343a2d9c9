# The README's two commands: `make demo` and `make test`. Each sets up .venv first.
VENV := .venv
BIN := $(VENV)/bin
export QT_QPA_PLATFORM ?= offscreen

.PHONY: setup demo test lint bench clean

setup:
	@bash scripts/setup.sh

demo: setup
	$(BIN)/fireground demo --out fireground-demo

test: setup
	$(BIN)/pytest -q -p no:cacheprovider

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict engine
	bash scripts/lint_imports.sh

bench: setup
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) fireground-demo build *.egg-info
