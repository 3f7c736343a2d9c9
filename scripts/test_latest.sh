#!/usr/bin/env bash
# Try an upgrade on purpose: a throw-away venv with the newest versions pyproject.toml allows
# (ignoring requirements.lock), then every test there. The venv is deleted afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fireground-latest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$PYTHON" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade \
    --upgrade-strategy eager -e '.[test]'
echo "test-latest: the newest allowed versions, where they differ from the lock:"
"$tmp/venv/bin/python" scripts/check_lock.py "$tmp/venv/bin/python" 2>&1 \
    | sed -n 's/^check_lock: /  /p' || true
# put the throw-away venv first on PATH: tests that start `fireground` or Python find it
PATH="$tmp/venv/bin:$PATH" FIREGROUND_UNLOCKED=1 "$tmp/venv/bin/pytest" -q -p no:cacheprovider "$@"
