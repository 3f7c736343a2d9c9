"""Compile the engine's hot modules with mypyc, in place (``make setup`` runs this; round
20 of issue 15: docs/autopilot.md, "Speed, round 20: compiled with mypyc").

Usage::

    .venv/bin/python scripts/build_native.py           # build if the sources changed
    .venv/bin/python scripts/build_native.py --force   # build anyway
    .venv/bin/python scripts/build_native.py --clean   # delete the built files
    .venv/bin/python scripts/build_native.py --opt 0   # a quick build (gcc -O0), to try

It does nothing when ``engine/native.json`` matches the sources (a second ``make setup``
costs a digest of the engine). ``FIREGROUND_PURE=1 make setup`` builds nothing, and
``FIREGROUND_PURE=1`` in any run makes the engine import its ``.py`` files even when
extensions are built (engine/native.py, which also falls back to the sources whenever a
``.py`` of the engine changed since the build).

mypyc (part of the lock's mypy; it needs a C compiler and Python's headers) must see the
modules under their installed names (``fireground.engine...``: the engine's relative
imports are resolved when compiling), so this builds from a mirror of the installed layout
in ``build/mypyc/src`` (a ``fireground/`` folder with the checkout's CLI files and
``engine`` linked in). The extensions (one per module, plus ``engine/compiled__mypyc...so``
holding all their code) land next to the ``.py`` files, where Python imports them before
the source, through the editable install and ``benchmarks/ab.py``'s mirror alike. A build
that fails leaves nothing behind (the engine then runs its sources) and says so.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
BUILD = ROOT / "build" / "mypyc"
sys.path.insert(0, str(ENGINE))
import native  # noqa: E402  (engine/native.py on its own: no engine import, no guard)

#: the compiled modules: the standing orders, the searches, the rule steps, the state
COMPILED = [
    "games/blitz/autopilot/*.py",
    "games/blitz/reach/*.py",
    "games/blitz/rules/*.py",
    "games/blitz/*.py",
    "core/*.py",
]

#: left out, and why
SKIP = {
    "__init__.py": "mypyc 2.4 gives a compiled package a wrong __path__ (the shared "
    "library is not above fireground/ in the editable layout)",
    "core/dice.py": "derives from random.Random: mypyc cannot derive from most builtins",
    "core/yamlsafe.py": "derives from a yaml loader: mypyc cannot derive from it",
    "core/events.py": "__init_subclass__ reads cls.__dict__: mypyc rejects it",
    "core/game.py": "a @runtime_checkable Protocol: fails at import when compiled",
    "games/blitz/pack.py": "a native class: tests assign its class attributes",
    "games/blitz/events.py": "derives from core/events.py's Event (left out)",
}


def modules() -> list[str]:
    out: set[str] = set()
    for pattern in COMPILED:
        for path in ENGINE.glob(pattern):
            rel = path.relative_to(ENGINE).as_posix()
            if not any(rel.endswith(s) for s in SKIP):
                out.add("fireground/engine/" + rel)
    return sorted(out)


def clean() -> None:
    for so in ENGINE.rglob("*.so"):
        so.unlink()
    (ENGINE / native.MANIFEST_NAME).unlink(missing_ok=True)
    shutil.rmtree(BUILD, ignore_errors=True)


def up_to_date() -> bool:
    return bool(native.compiled_modules(ENGINE, "fireground.engine")) and (
        native.stale_reason(ENGINE) is None
    )


def build(opt: str) -> None:
    src = BUILD / "src"
    pkg = src / "fireground"
    pkg.mkdir(parents=True, exist_ok=True)
    for f in (ROOT / "fireground").glob("*.py"):
        if not (pkg / f.name).is_symlink():
            (pkg / f.name).symlink_to(f)
    if not (pkg / "engine").is_symlink():
        (pkg / "engine").symlink_to(ENGINE)
    paths = modules()
    before = native.digest(ENGINE)
    print(f"build_native: compiling {len(paths)} engine modules with mypyc", flush=True)
    # (in a child: setuptools and mypyc run from the mirror, and its output is kept quiet).
    # -fno-semantic-interposition: every module's code is one C file whose functions are
    # global, and in a shared library the compiler must assume any of them may be
    # replaced at load time, so it neither inlines them nor calls them directly (each call
    # goes through the PLT). Nothing replaces them: the flag lets it do both (2.1% fewer
    # instructions a game, docs/autopilot.md round 24)
    code = (
        "import sys; from mypyc.build import mypycify; from setuptools import setup\n"
        "exts = mypycify(sys.argv[3:], opt_level=sys.argv[1], target_dir=sys.argv[2],\n"
        "                group_name='fireground.engine.compiled')\n"
        "for e in exts: e.extra_compile_args.append('-fno-semantic-interposition')\n"
        "setup(name='fireground-native', ext_modules=exts, script_args=['build_ext',\n"
        "      '--inplace', '--force', '--build-temp', sys.argv[2] + '-tmp'])\n"
    )
    log = BUILD / "build.log"
    with log.open("w") as out:
        r = subprocess.run(
            [sys.executable, "-c", code, opt, str(BUILD / "c"), *paths],
            cwd=src,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": ""},
        )
    if r.returncode != 0 or native.digest(ENGINE) != before:
        tail = log.read_text().splitlines()[-15:]
        clean()
        print("\n".join(tail), file=sys.stderr)
        why = "the build failed" if r.returncode else "a .py changed during the build"
        raise SystemExit(f"build_native: {why}; the engine runs its .py files (log above)")
    manifest = {"digest": before, "versions": native.versions(), "modules": paths}
    (ENGINE / native.MANIFEST_NAME).write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"build_native: done ({len(paths)} modules)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opt", default="3", help="the C compiler's -O level (mypyc opt_level)")
    ap.add_argument("--force", action="store_true", help="build even if up to date")
    ap.add_argument("--clean", action="store_true", help="delete the built files")
    a = ap.parse_args()
    if a.clean:
        clean()
        return
    if os.environ.get("FIREGROUND_PURE", "") not in ("", "0"):
        print("build_native: FIREGROUND_PURE is set: nothing compiled")
        return
    if not a.force and up_to_date():
        return
    clean()
    build(a.opt)


if __name__ == "__main__":
    main()
