"""``fireground play turn`` killed with SIGKILL at random moments leaves the old or the new
game file, never a torn one (as tests/cli/test_convert_kill.py does for convert)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fireground.engine.play.gamefile import save_game
from fireground.engine.play.table import start_game
from fireground.engine.scenario.io import load_scenario

REPO = Path(__file__).resolve().parents[2]
KILLS = 12


def _start(path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "fireground", "play", "turn", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _timed(path: Path, old: bytes) -> float:
    for p in path.parent.iterdir():
        p.unlink()
    path.write_bytes(old)
    t0 = time.perf_counter()
    assert _start(path).wait(timeout=120) == 0
    return time.perf_counter() - t0


@pytest.mark.slow
def test_sigkill_during_play_turn_never_tears_the_game_file(tmp_path: Path) -> None:
    tg = start_game(load_scenario(REPO / "examples" / "paternoster.fg.yaml"), 9)
    for _ in range(4):
        tg.play()
    folder = tmp_path / "game"
    folder.mkdir()
    path = folder / "g.fgame.yaml"
    bak = folder / "g.fgame.yaml.bak"
    save_game(tg, path, backup=False)
    old = path.read_bytes()
    full = _timed(path, old)
    new = path.read_bytes()
    assert new != old and bak.read_bytes() == old

    rng = random.Random(1941)
    outcomes = {"old": 0, "new": 0}
    for attempt in range(2 * KILLS):
        if attempt == KILLS:
            if outcomes["old"] and outcomes["new"]:
                break
            full = _timed(path, old)  # the machine's speed drifted: time it again
        for p in folder.iterdir():
            p.unlink()
        path.write_bytes(old)
        proc = _start(path)
        try:
            proc.wait(timeout=rng.uniform(0.5, 1.05) * full)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
        data = path.read_bytes()
        assert data in (old, new), f"torn game file: {len(data)} bytes"
        outcomes["old" if data == old else "new"] += 1
        if bak.exists():
            assert bak.read_bytes() == old
        leftovers = {p.name for p in folder.iterdir()} - {path.name, bak.name}
        assert all(name.endswith(".tmp") for name in leftovers), leftovers
    assert outcomes["old"] > 0 and outcomes["new"] > 0, outcomes
