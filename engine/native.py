"""The engine's compiled modules (mypyc, built by ``scripts/build_native.py`` during
``make setup``) and the guard that never lets a stale one run.

The build leaves one extension per compiled module next to its ``.py`` (Python imports an
extension before the source), ``compiled__mypyc...so`` with all their code, and
``native.json``: the digest of every ``.py`` of the engine when it was built, with the
Python and mypy versions. When ``fireground.engine`` is imported, :func:`choose` compares
that digest with the sources now: if any ``.py`` of the engine changed since (a compiled
module may have inlined a constant of a module that was not compiled), if the manifest is
missing, or if ``FIREGROUND_PURE=1`` is set, every compiled module is imported from its
``.py`` instead (a finder put first on ``sys.meta_path``), so what runs is always the
source. ``STATE`` says which: ``"compiled"``, ``"pure: <why>"`` or ``"pure: not built"``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

ENGINE = Path(__file__).resolve().parent
#: the build's record, next to this module (git-ignored, like the extensions)
MANIFEST_NAME = "native.json"
#: the extension holding the compiled code of every module (mypyc's shared library)
SHARED = "compiled__mypyc"

#: what :func:`choose` decided for this process
STATE = "pure: not built"


def digest(root: Path) -> str:
    """One digest of every ``.py`` under ``root`` (path and content, in path order)."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def versions() -> dict[str, str]:
    """The Python and mypy the extensions are built with and must be loaded by."""
    try:
        from importlib.metadata import version

        mypy = version("mypy")
    except Exception:  # (no mypy: the extensions cannot have been built here)
        mypy = "none"
    return {"python": sys.version, "mypy": mypy}


def compiled_modules(root: Path, package: str) -> dict[str, Path]:
    """Each module under ``root`` that has an extension beside its ``.py``, by its name
    (``root`` is the folder of ``package``), with the ``.py`` path."""
    out: dict[str, Path] = {}
    for suffix in EXTENSION_SUFFIXES:
        for ext in root.rglob("*" + suffix):
            stem = ext.name[: -len(suffix)]
            source = ext.with_name(stem + ".py")
            if stem == SHARED or not source.is_file():
                continue
            parts = ext.parent.relative_to(root).parts
            out[".".join((package, *parts, stem))] = source
    return out


def stale_reason(root: Path) -> str | None:
    """Why the extensions under ``root`` must not run (None: they may)."""
    if os.environ.get("FIREGROUND_PURE", "") not in ("", "0"):
        return "FIREGROUND_PURE is set"
    try:
        built = json.loads((root / MANIFEST_NAME).read_text())
    except (OSError, ValueError):
        return f"no {MANIFEST_NAME} (run make setup)"
    if built.get("versions") != versions():
        return "built for another Python or mypy (run make setup)"
    if built.get("digest") != digest(root):
        return "a .py changed since the build (run make setup)"
    return None


class SourceFirst:
    """A finder that imports the named modules from their ``.py``, extension or not."""

    def __init__(self, sources: dict[str, Path]):
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def choose(root: Path = ENGINE, package: str = "fireground.engine") -> str:
    """Run the compiled modules of ``root`` if they are up to date, else their sources
    (see the module's text); returns, and keeps in ``STATE``, which."""
    global STATE
    sources = compiled_modules(root, package)
    if not sources:
        state = "pure: not built"
    else:
        why = stale_reason(root)
        if why is None:
            state = "compiled"
        else:
            state = f"pure: {why}"
            sys.meta_path.insert(0, SourceFirst(sources))
    if root == ENGINE:
        STATE = state
    return state
