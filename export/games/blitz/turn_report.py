"""The turn report: N simulated turns, each with a small map of the state at its end and
its events told in plain English, then the final scorecard and the seed to replay it.

It reads the turn log of ``scenario-format.md`` (``game.log_obj()``), so any log written
by ``fireground simulate --log`` can be printed the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.platypus import KeepTogether
from reportlab.platypus.flowables import Flowable

from fireground.engine.board.model import Scenario

from ... import flow
from ...mapdraw import Marks, draw_summary
from .briefing import fit_map, report_page

#: How each rule's roll reads; {at}/{src}/{dst} are locations, {dice} the raw dice.
PHRASES: Mapping[str, tuple[str, str]] = {
    "spread": ("fire spreads from {src} to {dst}", "fire from {src} fails to catch {dst}"),
    "jump": ("fire jumps from {src} to {dst}", "fire in {src} fails to jump to {dst}"),
    "growth": ("the fire in {at} grows", "the fire in {at} holds"),
    "reignite": ("embers in {at} flare up again", "embers in {at} stay down"),
    "bomb_run": ("bombers overhead", "bombers overhead"),
    "bomb_load": ("a stick of bombs falls", "a stick of bombs falls"),
    "bomb_drop": ("a bomb lands on {at}", "a bomb misses the map"),
    "he_damage": ("blast damage to {at}", "blast damage to {at}"),
    "he_personnel": ("a crew near {at} escapes the blast", "a crew near {at} is hit by the blast"),
    "he_equipment": ("equipment near {at} is knocked out", "equipment near {at} survives"),
    "collapse_roll": ("the building at {at} is weakened", "the structure at {at} holds"),
    "collapse": ("{at} collapses", "{at} stands"),
    "escape": ("a unit escapes from {at}", "a unit is trapped at {at}"),
    "heat": ("a crew braves the heat into {at}", "the heat turns a crew back from {at}"),
    "extinguish": ("water knocks the fire in {at} down", "water has no effect on {at}"),
    "damp_down": ("{at} is damped down", "{at} stays dry"),
    "embers_out": ("embers in {at} are put out", "embers in {at} keep smouldering"),
    "fire_party": ("a fire party puts out the fire in {at}", "a fire party fails at {at}"),
    "rescue": ("rescuers find a casualty at {at}", "rescuers search {at} in vain"),
    "dig_out": ("a casualty is dug out at {at}", "digging goes on at {at}"),
    "casualty_status": ("a casualty from {at} is alive", "a casualty from {at} did not survive"),
    "fatigue": ("a crew recovers", "a crew tires"),
    "arrive": ("{unit} arrives at {at}", "{unit} is held up"),
    "drive": ("{unit} drives from {src} to {dst}", "{unit} cannot get through to {dst}"),
    "walk": ("{unit} moves from {src} to {dst}", "{unit} cannot reach {dst}"),
    "connect": ("{unit} connects to water at {at}", "{unit} finds no water at {at}"),
    "hose_start": ("{unit} starts a hose line at {at}", "{unit} cannot start a hose at {at}"),
    "hose_lay": ("{unit} lays hose into {at}", "{unit} cannot lay hose into {at}"),
    "refill": ("{unit} refills at {at}", "{unit} cannot refill at {at}"),
}
#: Rolls that happen by the dozen: summarised as counts rather than told one by one.
ROUTINE = ("spread", "growth", "reignite", "bomb_run")


def _loc(d: Any) -> str:
    if not isinstance(d, Mapping):
        return "?"
    lvl = int(d.get("level", 0))
    return f"{d.get('area', '?')}" + (f" (level {lvl})" if lvl else "")


def event_text(ev: Mapping[str, Any]) -> str:
    """One event of the turn log in plain English, with its roll."""
    rule = str(ev.get("rule", "?"))
    ok = bool(ev.get("success", True))
    yes, no = PHRASES.get(rule, (f"{rule.replace('_', ' ')} at {{at}}",) * 2)
    where = {
        "at": _loc(ev.get("at") or ev.get("to") or ev.get("from")),
        "src": _loc(ev.get("from") or ev.get("at")),
        "dst": _loc(ev.get("to") or ev.get("at")),
        "unit": str(ev.get("unit") or "a unit"),
    }
    text = (yes if ok else no).format(**where)
    dice = ev.get("dice") or []
    roll = "+".join(str(d) for d in dice)
    mod = int(ev.get("modifier", 0) or 0)
    need = ev.get("need")
    bits = []
    if roll:
        bits.append(f"rolled {roll}" + (f" {mod:+d}" if mod else ""))
    if need and need not in ("table", "auto"):
        bits.append(f"needed {need}")
    if ev.get("ruling"):
        bits.append(str(ev["ruling"]))
    return text[:1].upper() + text[1:] + (f" ({', '.join(bits)})" if bits else "") + "."


def _score_rows(score: Mapping[str, Any]) -> list[list[str]]:
    labels = {
        "destroyed": "Locations destroyed",
        "burning": "Fires still burning",
        "dead": "Dead",
        "injured": "Injured",
        "rescued": "Rescued",
        "units_lost": "Units lost",
    }
    rows = [["", "result"]]
    for k, v in score.items():
        if k == "objectives" or isinstance(v, Mapping | list):
            continue
        rows.append([labels.get(k, k.replace("_", " ").capitalize()), str(v)])
    for o in score.get("objectives", []) or []:
        if isinstance(o, Mapping):
            detail = {
                "protect": o.get("building") or o.get("area"),
                "rescue": f"at least {o.get('at_least')} alive",
                "contain": f"at most {o.get('max_destroyed')} destroyed",
            }
            what = f"{o.get('type', 'objective')} {detail.get(str(o.get('type')), '') or ''}"
            met = o.get("met", o.get("success"))
            rows.append([f"Objective: {what}", "met" if met else "failed"])
    return rows


def simulate_log(scenario: Scenario, turns: int, seed: int | None) -> dict[str, Any]:
    """Play ``turns`` turns with the engine's autopilot; the log object."""
    from fireground.engine.play.simulate import new_game

    game = new_game(scenario, seed)
    game.run(turns)
    log: dict[str, Any] = game.log_obj()
    return log


def story(
    scenario: Scenario,
    log: Mapping[str, Any],
    width: float,
    base: float,
    map_h: float,
    max_events: int = 30,
) -> list[Flowable]:
    st = flow.styles(base)
    out: list[Flowable] = []
    seed = log.get("seed")
    out.append(
        flow.para(
            f"A sample of {len(log.get('turns', []))} turns played by the standing-orders autopilot "
            f"with seed {seed}. To replay it: fireground simulate FILE --seed {seed}, or load the "
            "scenario in the editor and play with the same seed. Maps show each area at its "
            "hottest fire (F) and the levels burning (L); dark areas are destroyed.",
            st["body"],
        )
    )
    map_w = width * 0.42
    for entry in log.get("turns", []):
        marks = Marks.from_log_state(entry.get("state", {}))
        events = [e for e in entry.get("events", []) if isinstance(e, Mapping)]
        told = [
            event_text(e)
            for e in events
            if e.get("rule") not in ROUTINE or (e.get("success") and e.get("rule") != "bomb_run")
        ]
        counts = []
        for rule, word in (("spread", "spread"), ("growth", "growth"), ("reignite", "embers")):
            rolls = [e for e in events if e.get("rule") == rule]
            if rolls:
                hits = sum(1 for e in rolls if e.get("success"))
                counts.append(f"{word} {hits} of {len(rolls)}")
        for e in events:
            if e.get("rule") == "bomb_run":
                counts.append(f"bomb run: {e.get('result', 'rolled')}")
        lines = told[:max_events]
        if len(told) > max_events:
            lines.append(f"… and {len(told) - max_events} more events.")
        if not lines:
            lines = ["A quiet turn."]
        fires = len(marks.fires)
        head = flow.para(f"Turn {entry.get('turn')} · {fires} location(s) burning", st["h2"])
        beside = max(1, int(map_h // (st["small"].leading + 0.5)) - 2)
        summary = flow.para(
            "Rolls that came good: " + "; ".join(counts) + "." if counts else "No fire rolls.",
            st["cell"],
        )
        texts = [summary] + [flow.para("• " + t, st["small"]) for t in lines[:beside]]
        painter = fit_map(scenario, marks, lambda c, s, v, m: draw_summary(c, s, v, m))
        row = flow.table(
            [[flow.MapFlowable(map_w, map_h, painter), texts]],
            st["cell"],
            [map_w + 6, width - map_w - 8],
            header=False,
        )
        row.setStyle(
            [("GRID", (0, 0), (-1, -1), 0, "#ffffff"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]
        )
        out.append(KeepTogether([head, row]))
        out += [flow.para("• " + t, st["small"]) for t in lines[beside:]]
    score = log.get("score") or {}
    out.append(flow.para("Scorecard", st["h1"]))
    out.append(flow.table(_score_rows(score), st["cell"], [width * 0.6, width * 0.4]))
    return out


def write_turn_report(
    scenario: Scenario,
    path: Path,
    paper: str = "a4",
    turns: int = 6,
    seed: int | None = None,
    log: Mapping[str, Any] | None = None,
) -> Path:
    if log is None:
        log = simulate_log(scenario, turns, seed)
    lay, width, base = report_page(paper)
    return flow.build(
        path,
        lay,
        story(scenario, log, width, base, lay.length("turn_map_height")),
        title=f"Turn report: {scenario.name or 'untitled'}",
        subtitle=f"{len(log.get('turns', []))} simulated turns · seed {log.get('seed')}",
        footer=f"fireground turn report · seed {log.get('seed')}",
    )
