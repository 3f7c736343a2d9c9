"""Compare what a Python environment holds with requirements.lock.

Usage: ``python scripts/check_lock.py [PYTHON]`` (default: this interpreter). Exit 1, with
each difference, when a locked package is missing or at another version, or when the
environment holds a package the lock does not name (fireground itself excepted).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

LOCK = Path(__file__).resolve().parent.parent / "requirements.lock"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(python: str) -> dict[str, str]:
    """name -> version of every pin of the lock whose marker holds for ``python``."""
    pins: list[tuple[str, str, str]] = []
    for line in LOCK.read_text().splitlines():
        m = _PIN.match(line)
        if m:
            pins.append((canonical(m.group(1)), m.group(2), (m.group(3) or "").strip()))
    # markers are judged by the interpreter they are about, with packaging's evaluator
    probe = (
        "import json, sys\n"
        "from packaging.markers import Marker\n"
        "pins = json.load(sys.stdin)\n"
        "print(json.dumps([p for p in pins if not p[2] or Marker(p[2]).evaluate()]))\n"
    )
    out = subprocess.run(
        [python, "-c", probe], input=json.dumps(pins), capture_output=True, text=True, check=True
    ).stdout
    return {name: version for name, version, _ in json.loads(out)}


def installed(python: str) -> dict[str, str]:
    probe = (
        "import importlib.metadata as m, json\n"
        "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))\n"
    )
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True).stdout
    return {canonical(k): v for k, v in json.loads(out).items()}


def differences(python: str) -> list[str]:
    want, have = locked(python), installed(python)
    problems = [
        f"{name}: locked {version}, installed {have.get(name, 'nothing')}"
        for name, version in sorted(want.items())
        if have.get(name) != version
    ]
    problems += [
        f"{name} {version}: installed but not in requirements.lock"
        for name, version in sorted(have.items())
        if name not in want and name != "fireground"
    ]
    return problems


def main() -> int:
    python = sys.argv[1] if len(sys.argv) > 1 else sys.executable
    problems = differences(python)
    for p in problems:
        print(f"check_lock: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
