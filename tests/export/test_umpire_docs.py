"""The turn report and the briefing, read as an umpire reads them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from export_scenarios import small_scenario
from pypdf import PdfReader

from fireground.engine.board.model import ForceUnit
from fireground.export.games.blitz.briefing import write_briefing
from fireground.export.games.blitz.turn_report import (
    Teller,
    _score_rows,
    event_text,
    write_turn_report,
)


def _text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(path).pages)


def test_modifiers_have_reasons_and_rulings_are_explained_once() -> None:
    sc = small_scenario()  # L2 level -1 holds an oil store
    teller = Teller(sc)
    ev = {
        "rule": "spread",
        "from": {"area": "L1", "level": -1},
        "to": {"area": "L2", "level": -1},
        "dice": [1],
        "modifier": -2,
        "need": "<=2",
        "success": True,
        "ruling": "R-2",
    }
    first = event_text(ev, teller)
    assert first.startswith("Fire spreads from L1 level -1 to L2 level -1")
    assert "-1 strong wind, downwind" in first and "-1 oil store (R-4)" in first
    assert "R-2: downwind means" in first
    again = event_text(ev, teller)
    assert "R-2: " not in again and "; R-2)" in again
    # growth: a wood store and a burning neighbour are the only growth modifiers
    grow = {"rule": "growth", "at": {"area": "S2", "level": 0}, "dice": [5], "modifier": 2}
    assert "+1 wood store, +1 a neighbour burning" in event_text(grow, teller)


def test_every_unit_line_names_its_unit_and_hoses_their_target() -> None:
    teller = Teller(small_scenario())
    teller.turn(
        {
            "hoses": [
                {
                    "id": "H1",
                    "unit": "E1",
                    "path": [{"area": "R1", "level": 0}],
                    "target": {"area": "S1", "level": 0},
                }
            ]
        }
    )
    out = event_text(
        {
            "rule": "extinguish",
            "at": {"area": "S1", "level": 0},
            "hose": "H1",
            "range": 1,
            "dice": [5],
            "modifier": 1,
            "success": True,
        },
        teller,
    )
    assert out.startswith("E1's hose H1 on S1 level 0 knocks the fire in S1 level 0 down")
    assert "+1 range 1" in out
    for rule in ("heat", "fire_party", "rescue", "dig_out", "fatigue", "walk", "refill"):
        line = event_text({"rule": rule, "unit": "FP1", "at": {"area": "S1", "level": 0}}, teller)
        assert "FP1" in line, rule


def test_the_report_prints_every_event_and_objectives_by_name(tmp_path: Path) -> None:
    text = _text(write_turn_report(small_scenario(), tmp_path / "t.pdf", turns=6, seed=3))
    assert "more events" not in text
    rows = _score_rows(
        {"objectives": [{"type": "protect", "building": "simpkin", "met": True}]}, small_scenario()
    )
    assert rows[-1] == ["Objective: protect Simpkin Marshall warehouse", "met"]


def test_briefing_shows_upstairs_fires_and_who_is_really_on_the_table(tmp_path: Path) -> None:
    sc = small_scenario()  # fire 2 in S3 level 3, fire 1 in S2 level 0
    sc = dataclasses.replace(
        sc, forces=(*sc.forces, ForceUnit("P9", "light_pump", entry="from Cheapside", arrives=1))
    )
    text = _text(write_briefing(sc, tmp_path / "b.pdf"))
    assert "F2 L3" in text  # the upstairs fire on the every-level map
    assert "from Cheapside: arrives turn 1" in text
    assert "R1: on the table at the start" in text  # E1 placed in R1


def test_no_label_is_cut_short_in_the_briefing(tmp_path: Path) -> None:
    from fireground.engine.scenario.io import load_scenario

    examples = Path(__file__).resolve().parents[2] / "examples"
    sc = load_scenario(examples / "paternoster.fg.yaml")
    text = _text(write_briefing(sc, tmp_path / "b.pdf"))
    assert "…" not in text  # "Books: cella…" was printed before
