"""The turn report and the briefing, read as an umpire reads them."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from export_scenarios import small_scenario
from pypdf import PdfReader

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.dice import ScriptedDice
from fireground.engine.games.blitz.rules import fire
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario
from fireground.export.games.blitz.briefing import area_span, fit_map, report_page, write_briefing
from fireground.export.games.blitz.turn_report import (
    Teller,
    _score_rows,
    event_text,
    replay,
    replay_of,
    write_turn_report,
)
from fireground.export.kit import new_canvas
from fireground.export.layout import Box, layout
from fireground.export.mapdraw import Marks, draw_level

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(path).pages)


def _spread_into_the_oil_store() -> tuple[Any, Any, Any]:
    """Step 1 played with scripted dice on small_scenario: a fire 2 in L1's basement rolls
    into L2's basement (an oil store, downwind in the strong SW wind, damp 1). The context,
    the state before the step, and the spread event the rule logged."""
    sc = small_scenario()
    game = new_game(sc, dice=ScriptedDice([1] * 20))
    ctx, state = game.ctx, game.state
    state.fire = {("L1", -1): 2}
    state.embers, state.damp = set(), {("L2", -1): 1}
    ctx.reset_events()
    ctx.step = 1
    before = state.copy()
    fire.step_spread(ctx, state)
    (ev,) = [e for e in ctx.events if e.get("to") == {"area": "L2", "level": -1}]
    return ctx, before, ev.to_json()


def test_modifier_reasons_come_from_the_rule_and_rulings_are_explained_once() -> None:
    ctx, before, ev = _spread_into_the_oil_store()
    assert ev["modifier"] == -1 and ev["ruling"] == "R-2,R-4"  # +1 damp -1 wind -1 oil
    teller = Teller(small_scenario())
    first = event_text(ev, teller, (ctx, before))
    assert first.startswith("Fire spreads from L1 level -1 to L2 level -1")
    assert "rolled 1 -1: target damp +1, downwind in a strong wind -1, oil store -1;" in first
    assert "R-2: downwind means" in first and "R-4: an oil or petrol store" in first
    again = event_text(ev, teller, (ctx, before))
    assert "R-2: " not in again and "; R-2; R-4)" in again
    # the parts must add up to the logged total, else the roll is given without reasons
    wrong = {**ev, "modifier": -2}
    assert "rolled 1 -2; " in event_text(wrong, teller, (ctx, before))
    # growth: a wood store in S2 and a burning neighbour (S1), from the same state
    before.fire = {("S1", 0): 1, ("S2", 0): 1}
    grow = {"rule": "growth", "at": {"area": "S2", "level": 0}, "dice": [5], "modifier": 2}
    assert "(rolled 5 +2: a neighbour burning +1, wood store +1)" in event_text(
        grow, teller, (ctx, before)
    )


def test_every_modified_roll_of_a_simulated_report_gives_its_reasons() -> None:
    sc = small_scenario()
    rep = replay(sc, 6, 3)
    teller = Teller(sc)
    modified = []
    for t, turn in enumerate(rep.log["turns"]):
        for k, ev in enumerate(turn["events"]):
            if ev.get("modifier") and ev.get("dice"):
                modified.append(ev["rule"])
                line = event_text(ev, teller, rep.where(t, k))
                assert re.search(r"rolled [0-9+]+ [+-]\d+: [a-z]", line), line
    assert {"spread", "growth", "extinguish"} <= set(modified)  # streams: range and crew
    # a log given to the report is replayed too when it is the same game; not when altered
    assert replay_of(sc, json.loads(json.dumps(rep.log))) is not None
    other = json.loads(json.dumps(rep.log))
    other["turns"][0]["events"] = other["turns"][0]["events"][1:]
    assert replay_of(sc, other) is None


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


@pytest.mark.parametrize("name", ["paternoster", "surrey_docks", "stepney"])
def test_briefing_map_labels_stay_in_their_areas_apart_and_legible(name: str) -> None:
    sc = load_scenario(EXAMPLES / f"{name}.fg.yaml")
    c = new_canvas(Path(os.devnull), (595, 842), "t", "t")
    placed: list[Any] = []
    lay, width, _ = report_page("a4")
    paint = fit_map(
        sc,
        Marks.from_start(sc),
        lambda c, s, v, m: draw_level(
            c, s, v, 0, m, symbol_size=layout("map_style").length("small_symbol"), placed=placed
        ),
    )
    paint(c, Box("map", 0, 0, width, lay.length("map_height")))
    ids = {a.id for a in sc.areas if 0 in sc.levels_of(a.id)}
    texts = [t for t, *_ in placed]
    assert len(set(texts) & ids) >= 0.95 * len(ids)  # ids are left out only below 6 pt
    names = [t for t in texts if t not in ids]
    if name == "stepney":  # big areas: every building is named
        assert len(names) == len(sc.buildings)
    for text, box, size, cell in placed:
        assert size >= 6.0, text
        # inside its own area: no text crosses an area border
        assert cell[0] - 0.01 <= box[0] and box[2] <= cell[2] + 0.01, text
        assert cell[1] - 0.01 <= box[1] and box[3] <= cell[3] + 0.01, text
    for i, (t1, a, *_) in enumerate(placed):
        for t2, b, *_ in placed[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (t1, t2)


def test_briefing_lists_each_buildings_areas(tmp_path: Path) -> None:
    assert area_span(["SM1", "SM2", "SM3", "SM4"]) == "SM1–SM4"
    assert area_span(["PUB1", "PUB2", "X"]) == "PUB1, PUB2, X"
    text = _text(
        write_briefing(load_scenario(EXAMPLES / "paternoster.fg.yaml"), tmp_path / "b.pdf")
    )
    assert "SM1–SM9" in text
