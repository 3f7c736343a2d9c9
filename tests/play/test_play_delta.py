"""The table delta (what to change on the table after a turn) and the one-page turn sheet."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from pypdf import PdfReader

from fireground.cli import main
from fireground.engine.games.blitz.delta import delta_lines, table_delta
from fireground.engine.play.table import start_game
from fireground.engine.scenario.io import load_scenario

REPO = Path(__file__).resolve().parents[2]
ROW = REPO / "examples" / "paternoster.fg.yaml"

BEFORE = {
    "fires": [{"area": "H3", "level": 1, "fire": 2}, {"area": "K1", "level": 0, "fire": 1}],
    "embers": [],
    "damp": [{"area": "K1", "level": 0, "damp": 1}],
    "damage": [],
    "rubble": [],
    "craters": [],
    "all_clear": False,
    "units": [
        {"id": "GA1", "type": "pump", "kind": "vehicle", "area": "R1", "level": 0, "status": "ok"},
        {
            "id": "GA1.2",
            "type": "team",
            "kind": "stand",
            "area": "R1",
            "level": 0,
            "status": "ok",
            "fatigue": "fresh",
        },
        {"id": "GA2", "type": "pump", "kind": "vehicle", "status": "ok"},
    ],
    "hoses": [],
    "casualties": [],
    "occupants": [],
    "hydrants_lost": [],
    "water_left": [],
}


def test_the_delta_names_every_change_by_place() -> None:
    after = copy.deepcopy(BEFORE)
    after["fires"] = [
        {"area": "H3", "level": 1, "fire": 3},
        {"area": "J4", "level": 0, "fire": 1},
    ]
    after["embers"] = [{"area": "K1", "level": 0}]
    after["damp"] = []
    after["craters"] = ["ROW4"]
    after["units"][1].update(area="H3", level=0, status="killed")
    after["units"][2].update(area="R2", level=0)
    after["casualties"] = [{"id": "C1", "area": "H3", "level": 1, "status": "buried",
                            "origin": "civilian"}]  # fmt: skip
    lines = delta_lines(table_delta(BEFORE, after))
    assert lines == [
        "H3: GA1.2 from R1; GA1.2 is a casualty (killed)",
        "H3 level 1: casualty C1 (buried); fire 2 → 3",
        "J4: new fire 1",
        "K1: damp 1 → 0; embers; fire out (was 1)",
        "R2: GA2 enters",
        "ROW4: crater",
    ]
    assert table_delta(BEFORE, BEFORE) == []


def test_the_delta_of_a_played_turn_takes_the_table_from_before_to_after() -> None:
    """Applying the delta's fire changes to the state before gives the state after."""
    tg = start_game(load_scenario(ROW), 12)
    for _ in range(3):
        before = tg.state_log()
        rec = tg.play()
        assert rec.log is not None
        fires = {(f["area"], f["level"]): f["fire"] for f in before["fires"]}
        for c in table_delta(before, rec.log.state):
            if c.kind != "fire":
                continue
            loc = (c.area, c.level)
            if c.what.startswith("fire out"):
                del fires[loc]
            else:
                fires[loc] = int(c.what.rsplit(" ", 1)[-1])
        assert fires == {(f["area"], f["level"]): f["fire"] for f in rec.log.state["fires"]}


def test_play_turn_writes_a_one_page_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "g.fgame.yaml"
    sheet = tmp_path / "turn.pdf"
    assert main(["play", "start", str(ROW), "--out", str(game), "--seed", "5"]) == 0
    for _ in range(5):
        assert main(["play", "turn", str(game)]) == 0
    capsys.readouterr()
    assert main(["play", "turn", str(game), "--sheet", str(sheet)]) == 0
    out = capsys.readouterr().out
    pdf = PdfReader(str(sheet))
    assert len(pdf.pages) == 1
    text = " ".join(pdf.pages[0].extract_text().split())
    assert "Turn 6: Paternoster Row" in text
    printed = [ln.strip() for ln in out.splitlines() if ln.startswith("  ")]
    assert printed
    for line in printed:  # every place of the delta is on the sheet
        assert line.split(":", 1)[0] in text, line
    assert "1. spread" in text
    rc = main(["play", "turn", str(game), "--sheet", str(tmp_path / "nowhere" / "x.pdf")])
    assert rc == 2
    assert "cannot write the turn sheet there" in capsys.readouterr().err
