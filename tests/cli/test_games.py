"""``fireground games``: the installed game packs, found through their entry points."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version


def test_games_lists_blitz_with_its_version():
    r = subprocess.run(
        [sys.executable, "-m", "fireground", "games"], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert f"blitz {version('fireground')}" in lines
    assert lines == sorted(lines)
    assert r.stderr == ""


def test_games_is_in_the_help():
    r = subprocess.run(
        [sys.executable, "-m", "fireground", "--help"], capture_output=True, text=True, timeout=60
    )
    assert "games" in r.stdout and "list the installed games" in r.stdout
