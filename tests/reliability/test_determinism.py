"""Determinism across processes (docs/reliability.md, "Determinism").

``fireground simulate EXAMPLE --turns 10 --seed 3 --log out.json`` run in separate
processes with different ``PYTHONHASHSEED`` values writes byte-identical turn logs and
prints identical summaries: no result depends on set or dict-of-hash iteration order,
on object addresses or on the clock. ``fireground check --json`` is held to the same.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fireground.engine.scenario.envelope import blitz_examples

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = blitz_examples(REPO / "examples")
HASH_SEEDS = ("0", "1", "12345")

pytestmark = pytest.mark.slow


def _has_simulate() -> bool:
    try:
        return importlib.util.find_spec("fireground.engine.play.simulate") is not None
    except ImportError:
        return False


def _run(args: list[str], hash_seed: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("FIREGROUND_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "fireground", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=300,
    )


@pytest.mark.skipif(not _has_simulate(), reason="fireground.engine.play.simulate not written yet")
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_simulate_logs_are_identical_across_hash_seeds(example: Path, tmp_path: Path) -> None:
    def one(seed: str) -> tuple[bytes, bytes]:
        log = tmp_path / f"log-{seed}.json"
        args = ["simulate", str(example), "--turns", "10", "--seed", "3", "--log", str(log)]
        done = _run(args, seed, tmp_path)
        assert done.returncode == 0, done.stderr.decode(errors="replace")
        return log.read_bytes(), done.stdout

    with ThreadPoolExecutor(2) as pool:  # two processes at a time (2 cores)
        results = dict(zip(HASH_SEEDS, pool.map(one, HASH_SEEDS), strict=True))
    first_log, first_out = results[HASH_SEEDS[0]]
    doc = json.loads(first_log)
    assert len(doc["turns"]) == 10
    assert any(t["events"] for t in doc["turns"]), "a log without events proves little"
    for seed, (log, out) in results.items():
        assert log == first_log, f"PYTHONHASHSEED={seed} changed the turn log of {example.name}"
        assert out == first_out, f"PYTHONHASHSEED={seed} changed the printed summary"


def test_check_json_is_identical_across_hash_seeds(tmp_path: Path) -> None:
    outs = set()
    for seed in HASH_SEEDS:
        done = _run(["check", "--json", str(EXAMPLES[0])], seed, tmp_path)
        assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
        outs.add(done.stdout)
    assert len(outs) == 1
