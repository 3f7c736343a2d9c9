#!/usr/bin/env bash
# import-linter reads packages from disk, and cannot follow setuptools' package-dir mapping
# (engine/ -> fireground.engine). Mirror the installed layout in build/lint and lint that.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf build/lint
mkdir -p build/lint/fireground
cp fireground/*.py build/lint/fireground/
for d in engine editor export; do
    cp -r "$d" "build/lint/fireground/$d"
done
cd build/lint
exec ../../.venv/bin/lint-imports ../../pyproject.toml
