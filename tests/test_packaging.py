"""The install maps engine/, editor/, export/ into one `fireground` namespace."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run_py(code: str) -> subprocess.CompletedProcess[str]:
    # cwd outside the repo: the folders themselves must not be importable by bare name.
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd="/", timeout=60
    )


def test_namespace_imports() -> None:
    r = run_py("import fireground.engine, fireground.editor, fireground.export; print('ok')")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_bare_editor_and_export_are_not_ours() -> None:
    for name in ("editor", "engine"):
        r = run_py(f"import {name}")
        assert r.returncode != 0, f"bare `import {name}` must fail after install"


def test_every_code_package_is_listed_in_pyproject() -> None:
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    mapping = cfg["package-dir"]
    for pkg, folder in mapping.items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            name = ".".join([pkg, *rel.parts]) if rel.parts else pkg
            assert name in listed, f"{name} ({init.parent}) missing from pyproject packages"


def test_version_and_help_start_fast() -> None:
    import time

    for argv in (["--version"], ["--help"]):
        best = min(_timed([sys.executable, "-m", "fireground", *argv]) for _ in range(3))
        # Generous bound: the benchmark reports the real figure; this only catches a heavy
        # import (Qt, reportlab) sneaking into start-up, which costs well over a second.
        assert best < 1.0, f"fireground {argv} took {best:.2f} s"
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "fireground", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    heavy = [m for m in ("PySide6", "reportlab", "shapely", "numpy") if f" {m}" in r.stderr]
    assert not heavy, f"--help imported {heavy}"
    del time


def _timed(cmd: list[str]) -> float:
    import time

    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, timeout=60, check=True)
    return time.perf_counter() - t
