"""``fireground simulate`` and ``analyze`` on the round-2 scenarios (tests/fixtures/round2):
each shows one ruling of issue 15 in a whole game, as a player would see it in the log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fireground.cli import main

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "round2"


def simulate(tmp_path: Path, name: str, turns: int, orders: bool = False) -> dict[str, Any]:
    log = tmp_path / f"{name}.json"
    argv = ["simulate", str(FIX / f"{name}.fg.yaml"), "--turns", str(turns), "--log", str(log)]
    if orders:
        argv += ["--orders", str(FIX / f"{name}.orders.yaml")]
    assert main(argv) == 0
    out: dict[str, Any] = json.loads(log.read_text())
    return out


def events(log: dict[str, Any], rule: str) -> list[tuple[int, dict[str, Any]]]:
    return [(t["turn"], e) for t in log["turns"] for e in t["events"] if e["rule"] == rule]


def test_rescue_team_in_a_collapsed_building_digs_out_its_casualties(tmp_path, capsys):
    log = simulate(tmp_path, "rescue_wreck", 40)
    found = events(log, "casualty_status")
    assert len(found) == 3  # all three dug out of the wreck
    evac = events(log, "evacuated")
    assert evac  # and carried off
    cas = log["turns"][-1]["state"]["casualties"]
    alive = [c for c in cas if c["status"] != "dead"]
    assert all(c["evacuated"] for c in alive)
    # nobody working there was pulled out while a casualty still waited
    for turn, e in events(log, "withdraw"):
        assert e["at"]["area"] != "R1" or turn >= max(t for t, _ in found)


def test_a_stand_climbs_a_turntable_ladder_to_level_3_in_one_turn(tmp_path, capsys):
    log = simulate(tmp_path, "turntable_climb", 3, orders=True)
    walks = [(t, e) for t, e in events(log, "walk") if e["unit"] == "TL1.1"]
    assert walks[0][0] == 2
    assert walks[0][1]["from"] == {"area": "S1", "level": 0}
    assert walks[0][1]["to"] == {"area": "T1", "level": 3}
    # level 4 (8 points) starts on turn 2 and ends at step 6 of turn 3
    (climb,) = events(log, "climb")
    assert climb[0] == 2 and climb[1]["unit"] == "TL1.2" and climb[1]["ruling"] == "R-12"
    up = [(t, e) for t, e in events(log, "walk") if e["unit"] == "TL1.2"]
    assert up[0][0] == 3 and up[0][1]["to"] == {"area": "T1", "level": 4}


def test_the_lorry_lays_six_areas_a_turn(tmp_path, capsys):
    log = simulate(tmp_path, "lorry_run", 8, orders=True)
    (start,) = events(log, "hose_start")
    assert start[0] == 3 and start[1]["lorry"] == "HL1" and start[1]["unit"] == "HP1"
    lengths = {}
    for t in log["turns"]:
        for h in t["state"]["hoses"]:
            lengths[t["turn"]] = len(h["path"])
    assert [lengths[3], lengths[4], lengths[5]] == [7, 13, 14]  # 6 areas a turn, then the rest
    (laid,) = events(log, "hose_laid")
    assert laid[0] == 5 and laid[1]["at"] == {"area": "S14", "level": 0}
    assert [e for t, e in events(log, "extinguish") if e["hose"] == start[1]["hose"]]


def test_analyze_a_scenario_without_objectives(tmp_path, capsys):
    rc = main(["analyze", str(FIX / "turntable_climb.fg.yaml"), "--games", "20", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    report = json.loads(out)
    assert report["games"] == 20
