"""The fireground commands on Forest Fire scenarios (spec/cli.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fireground.cli import main

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "forestfire.fg.yaml"


def test_games_lists_both_packs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    ids = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert "forestfire" in ids and "blitz" in ids


def test_new_file_checks_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "ff.fg.yaml"
    assert main(["new", str(f), "--game", "forestfire"]) == 0
    assert main(["check", str(f)]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().err
    assert main(["new", str(f), "--game", "forestfire"]) == 2  # never overwritten


def test_check_reports_findings_with_file_line_col(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "bad.fg.yaml"
    f.write_text("game: forestfire\nboard: {squares: 2}\nstart:\n  tokens: {2: 1}\n"
                 "  engines: {E1: {square: 4}}\n")  # fmt: skip
    assert main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert f"{f}:2:18: FF101" in out and f"{f}:5:26: FF104" in out
    assert main(["check", str(f), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {e["code"] for e in data["errors"]} == {"FF101", "FF104"}


def test_bad_structure_exits_2_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "bad.fg.yaml"
    f.write_text("game: forestfire\nhouse_rules:\n  burn_out.sometimes: 3\n")
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{f}:3:3: unknown house rule") and "Traceback" not in err


def test_simulate_with_policies_writes_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.json"
    args = ["simulate", str(EXAMPLE), "--policy", "fire=random", "--policy", "chief=greedy",
            "--seed", "4", "--log", str(log)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "round 1 fire" in out and "result:" in out
    data = json.loads(log.read_text())
    assert data["game"] == "forestfire" and data["seed"] == 4
    assert data["policies"] == {"fire": "random", "chief": "greedy"}
    first = log.read_bytes()
    assert main(args) == 0
    assert log.read_bytes() == first  # same seed, same log, byte for byte
    sprays = [e for t in data["turns"] for e in t["events"] if e["step"] == "spray"]
    assert sprays and all(e["rule"] == "FF-spray" for e in sprays)


def test_simulate_refuses_bad_policies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(EXAMPLE), "--policy", "fire=clever"]) == 2
    assert "unknown policy 'clever'" in capsys.readouterr().err
    assert main(["simulate", str(EXAMPLE), "--policy", "water=greedy"]) == 2


def test_analyze_prints_the_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(EXAMPLE), "--games", "3", "--policy", "fire=greedy",
                 "--policy", "chief=random", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    (cell,) = data["matrix"]
    assert (cell["fire"], cell["chief"], cell["games"]) == ("greedy", "random", 3)
    shares = [
        cell[k]["share"] for k in ("fire_total_victory", "fire_marginal_victory", "chief_victory")
    ]
    assert sum(shares) == pytest.approx(1.0)
    assert "chief_first" in data


@pytest.mark.slow
def test_analyze_matrix_and_against(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The examples with the round cap at 8: this checks the command's output, not its
    # figures, and the search Chief holds greedy Fire to the cap (60 rounds of searched
    # decisions, over a minute a game on a loaded machine).
    base = tmp_path / "ff.fg.yaml"
    base.write_text(EXAMPLE.read_text() + "house_rules:\n  rounds.max: 8\n")
    other = tmp_path / "ff-burnout8.fg.yaml"
    text = (REPO / "examples" / "forestfire-burnout8.fg.yaml").read_text()
    other.write_text(text + "  rounds.max: 8\n")
    assert main(["analyze", str(base), "--games", "2", "--against", str(other)]) == 0
    out = capsys.readouterr().out
    for f in ("random", "greedy", "search"):
        for c in ("random", "greedy", "search"):
            assert any(line.split()[:2] == [f, c] for line in out.splitlines())
    assert "against" in out and "who moves first" in out


def test_blitz_paths_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stepney = REPO / "examples" / "stepney.fg.yaml"
    assert main(["simulate", str(stepney), "--policy", "fire=greedy"]) == 2
    assert "no sides" in capsys.readouterr().err
