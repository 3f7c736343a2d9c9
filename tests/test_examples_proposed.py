"""The balance changes proposed for the examples (issue 18, ``PROPOSED`` in
tools/examples/build_examples.py, not applied until re-measured under the new rules) are
exactly the sweep variants the guide measured, and the files they make check clean."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

from fireground.engine.games.blitz.checks.run import error_lines
from fireground.engine.play import sweep as sw
from fireground.engine.scenario.io import load_scenario

REPO = Path(__file__).resolve().parents[1]
BUILDER = REPO / "tools" / "examples" / "build_examples.py"

#: docs/guide.md, "Balancing a scenario", step 4: the chosen row of the second sweep
STEPNEY_MEASURED = [
    ("start.fires.H8.1", "3"),
    ("start.fires.PUB1.1", "2"),
    ("start.fires.PUB2.0", "0"),
    ("objectives.2.max_destroyed", "2"),
]


def test_proposed_stepney_is_the_measured_variant(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(BUILDER), "--proposed", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    proposed = load_scenario(tmp_path / "stepney.fg.yaml")
    measured = load_scenario(REPO / "examples" / "stepney.fg.yaml")
    for key, value in STEPNEY_MEASURED:
        measured = sw.apply_value(measured, key, value)
    assert proposed == dataclasses.replace(measured, source=proposed.source)
    assert error_lines(proposed, "stepney.fg.yaml") == []
    for other in ("paternoster", "surrey_docks"):  # no proposal for these yet
        assert (tmp_path / f"{other}.fg.yaml").read_bytes() == (
            REPO / "examples" / f"{other}.fg.yaml"
        ).read_bytes()


def test_proposed_never_writes_over_the_examples() -> None:
    r = subprocess.run(
        [sys.executable, str(BUILDER), "--proposed"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 2 and "never over examples/" in r.stderr
