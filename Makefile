# The README's two commands: `make demo` and `make test`. Each sets up .venv first.
VENV := .venv
BIN := $(VENV)/bin
export QT_QPA_PLATFORM ?= offscreen

.PHONY: setup demo test test-latest lock lint bench clean

setup:
	@bash scripts/setup.sh

demo: setup
	$(BIN)/fireground demo --out fireground-demo

test: setup
	$(BIN)/pytest -q -p no:cacheprovider

# Rewrite requirements.lock: the newest versions pyproject.toml allows, for every platform
# and Python >= 3.11, with hashes. Then `make test`, and commit the lock with the result.
lock: setup
	$(BIN)/uv pip compile pyproject.toml scripts/lock-tools.in --all-extras --universal \
		--python-version 3.11 --generate-hashes --upgrade --quiet -o requirements.lock
	@echo "lock: requirements.lock rewritten; run 'make test' and commit it"

# Every test in a throw-away venv with the newest versions pyproject.toml allows (not the
# lock): an upgrade tried on purpose.
test-latest:
	bash scripts/test_latest.sh

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict engine
	bash scripts/lint_imports.sh

bench: setup
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) fireground-demo build *.egg-info engine/native.json
	find engine -name '*.so' -delete
