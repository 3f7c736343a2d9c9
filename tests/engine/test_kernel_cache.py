"""The numba kernel compiles once per install, into the user cache, and says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

REPO = Path(__file__).resolve().parents[2]
NOTICE = "compiling the fast simulation kernel"


def _analyze(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    args = ["analyze", str(REPO / "examples" / "stepney.fg.yaml"), "--games", "20"]
    return subprocess.run(
        [sys.executable, "-m", "fireground", *args, "--no-response", "--seed", "3"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=str(REPO),
    )


@pytest.mark.slow
def test_first_run_compiles_into_the_user_cache_and_says_so(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # platformdirs' user cache on Linux
    env.pop("FIREGROUND_NO_NUMBA", None)
    first = _analyze(env)
    assert first.returncode == 0, first.stderr
    assert NOTICE in first.stderr
    cached = list((tmp_path / "cache" / "fireground" / "numba").rglob("*.nbi"))
    assert cached, "no numba index in the user cache"
    second = _analyze(env)
    assert second.returncode == 0, second.stderr
    assert NOTICE not in second.stderr
    assert second.stdout == first.stdout  # same games from the cached kernel


def test_cache_folder_follows_numba_cache_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    from fireground.engine.games.blitz.fastsim import numba_kernels as fk

    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere/else")
    assert fk.cache_dir() == Path("/somewhere/else")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "/x/cache")
    assert fk.cache_dir() == Path("/x/cache/fireground/numba")
