#!/usr/bin/env bash
# Create or update .venv with fireground (editable) and its test tools.
# Also makes sure the few system libraries Qt needs on a bare Debian are present.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
QT_LIBS="libglib2.0-0 libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3"
EXTRA_DEBS="poppler-utils"   # pdftoppm: renders PDFs to PNG for looking at them

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for pkg in $QT_LIBS $EXTRA_DEBS; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            # libgl1 etc. are also satisfied by their :amd64 names; dpkg-query handles both.
            missing+=("$pkg")
        fi
    done
fi
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing system packages: ${missing[*]}"
        apt-get update -qq || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || {
            echo "setup: apt-get failed; please run: sudo apt-get install -y ${missing[*]}" >&2
        }
    else
        echo "setup: Qt and the PDF renderer need system packages that are missing." >&2
        echo "setup: please run: sudo apt-get install -y ${missing[*]}" >&2
    fi
fi

if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv"
    "$PYTHON" -m venv .venv
fi
# Everything comes from requirements.lock (exact versions, with hashes), so every machine gets
# the versions the project was tested with; fireground itself goes in editable, with no
# dependency resolution of its own. `make lock` rewrites the lock, `make test-latest` tries
# the newest versions pyproject.toml allows.
stamp=.venv/.fireground-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements.lock -nt "$stamp" ] \
        || [ scripts/setup.sh -nt "$stamp" ]; then
    echo "setup: installing the locked dependencies and fireground into .venv"
    .venv/bin/python -m pip install -q --disable-pip-version-check --require-hashes \
        --no-deps -r requirements.lock
    .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps \
        --no-build-isolation -e .
    .venv/bin/python scripts/check_lock.py .venv/bin/python
    touch "$stamp"
fi
# The engine's hot modules compiled with mypyc (scripts/build_native.py): rebuilt whenever a
# .py of the engine changed since the last build, so `make test` never runs a stale one
# (and a direct run falls back to the sources: engine/native.py). FIREGROUND_PURE=1: none.
.venv/bin/python scripts/build_native.py \
    || echo "setup: the compiled modules were not built; the engine runs its .py files" >&2
