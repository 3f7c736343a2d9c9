"""The compiled engine modules (engine/native.py, scripts/build_native.py): an extension
runs only while it matches the sources; otherwise, or with FIREGROUND_PURE=1, the .py does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from fireground.engine import native

ORIGIN = (
    "import fireground.engine.games.blitz.autopilot.safety as m, fireground.engine.native as n; "
    "print(m.__spec__.origin); print(n.STATE)"
)


def _fake_package(tmp_path: Path, name: str) -> Path:
    """A package with one module ``mod``: its .py, and a broken extension beside it (an
    import of the extension fails), as a stale or foreign build would be."""
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "mod.py").write_text("WHERE = 'source'\n")
    (root / ("mod" + EXTENSION_SUFFIXES[0])).write_bytes(b"not an extension")
    return root


def _manifest(root: Path) -> None:
    (root / native.MANIFEST_NAME).write_text(
        json.dumps({"digest": native.digest(root), "versions": native.versions()})
    )


def test_an_extension_matching_its_sources_may_run(tmp_path, monkeypatch):
    monkeypatch.delenv("FIREGROUND_PURE", raising=False)
    root = _fake_package(tmp_path, "fgfake_ok")
    assert native.compiled_modules(root, "fgfake_ok") == {"fgfake_ok.mod": root / "mod.py"}
    assert native.stale_reason(root) == f"no {native.MANIFEST_NAME} (run make setup)"
    _manifest(root)
    assert native.stale_reason(root) is None
    monkeypatch.setenv("FIREGROUND_PURE", "1")
    assert native.stale_reason(root) == "FIREGROUND_PURE is set"


def test_an_edited_source_makes_the_build_stale(tmp_path, monkeypatch):
    monkeypatch.delenv("FIREGROUND_PURE", raising=False)
    root = _fake_package(tmp_path, "fgfake_edit")
    _manifest(root)
    (root / "other.py").write_text("X = 1\n")  # any .py of the tree, compiled or not
    assert native.stale_reason(root) == "a .py changed since the build (run make setup)"
    _manifest(root)
    (root / "mod.py").write_text("WHERE = 'edited'\n")
    assert native.stale_reason(root) == "a .py changed since the build (run make setup)"


def test_a_stale_extension_is_never_imported(tmp_path, monkeypatch):
    """Without the guard the broken extension is what Python imports; with it (stale: no
    manifest), the .py is."""
    monkeypatch.delenv("FIREGROUND_PURE", raising=False)
    root = _fake_package(tmp_path, "fgfake_stale")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError):
        __import__("fgfake_stale.mod")
    sys.modules.pop("fgfake_stale.mod", None)
    before = list(sys.meta_path)
    try:
        assert native.choose(root, "fgfake_stale").startswith("pure: no native.json")
        mod = __import__("fgfake_stale.mod", fromlist=["WHERE"])
        assert mod.WHERE == "source"
    finally:
        sys.meta_path[:] = before
        sys.modules.pop("fgfake_stale.mod", None)


def _origin(env: dict[str, str]) -> list[str]:
    r = subprocess.run(
        [sys.executable, "-c", ORIGIN], env=env, capture_output=True, text=True, check=True
    )
    return r.stdout.split("\n")[:2]


def test_fireground_pure_runs_the_sources():
    origin, state = _origin({**os.environ, "FIREGROUND_PURE": "1"})
    assert origin.endswith("safety.py")
    assert state in ("pure: FIREGROUND_PURE is set", "pure: not built")


@pytest.mark.skipif(native.STATE != "compiled", reason="the extensions are not built here")
def test_a_fresh_build_is_what_runs():
    env = {k: v for k, v in os.environ.items() if k != "FIREGROUND_PURE"}
    origin, state = _origin(env)
    assert state == "compiled" and origin.endswith(EXTENSION_SUFFIXES[0])
