"""The turn report: N simulated turns, each with a small map of the state at its end and
its events told in plain English, then the final scorecard and the seed to replay it.

It reads the turn log of ``scenario-format.md`` (``game.log_obj()``), so any log written
by ``fireground simulate --log`` can be printed the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether
from reportlab.platypus.flowables import Flowable

from fireground.engine.board.model import Location, Scenario
from fireground.engine.core.turn import Step, TurnContext
from fireground.engine.games.blitz.rules import modifiers
from fireground.engine.games.blitz.state import GameState

from ... import flow
from ...layout import layout
from ...mapdraw import MapView, Marks, draw_summary, style
from ...mapview import label_point
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
    "he_personnel": ("{unit} at {at} escapes the blast", "{unit} at {at} is hit by the blast"),
    "he_equipment": ("{unit} at {at} is knocked out", "{unit} at {at} survives the blast"),
    "collapse_roll": ("the building at {at} is weakened", "the structure at {at} holds"),
    "collapse": ("{at} collapses", "{at} stands"),
    "escape": ("{unit} escapes from {at}", "{unit} is trapped at {at}"),
    "heat": ("{unit} braves the heat into {at}", "the heat turns {unit} back from {at}"),
    "extinguish": (
        "{hose} knocks the fire in {at} down",
        "{hose} has no effect on the fire in {at}",
    ),
    "damp_down": ("{hose} damps {at} down", "{hose} leaves {at} dry"),
    "hose_laid": ("{hose} reaches {at}", "{hose} cannot reach {at}"),
    "deploy": ("{unit} deploys at {at}", "{unit} cannot deploy at {at}"),
    "embers_out": ("embers in {at} are put out", "embers in {at} keep smouldering"),
    "fire_party": ("{unit} puts out the fire in {at}", "{unit} fails to put out the fire in {at}"),
    "rescue": ("{unit} finds a casualty at {at}", "{unit} searches {at} in vain"),
    "dig_out": ("{unit} digs a casualty out at {at}", "{unit} goes on digging at {at}"),
    "casualty_status": ("a casualty from {at} is alive", "a casualty from {at} did not survive"),
    "fatigue": ("{unit} recovers", "{unit} tires"),
    "arrive": ("{unit} arrives at {at}", "{unit} is held up"),
    "drive": ("{unit} drives from {src} to {dst}", "{unit} cannot get through to {dst}"),
    "walk": ("{unit} moves from {src} to {dst}", "{unit} cannot reach {dst}"),
    "connect": ("{unit} connects to water at {at}", "{unit} finds no water at {at}"),
    "hose_start": ("{unit} starts {hose} at {at}", "{unit} cannot start a hose at {at}"),
    "hose_lay": ("{unit} lays hose into {at}", "{unit} cannot lay hose into {at}"),
    "refill": ("{unit} refills at {at}", "{unit} cannot refill at {at}"),
}
#: Rolls that happen by the dozen: summarised as counts rather than told one by one.
ROUTINE = ("spread", "growth", "reignite", "bomb_run")


def _loc(d: Any) -> str:
    """A location as the table names it: area and level, the ground level included."""
    if not isinstance(d, Mapping):
        return "?"
    return f"{d.get('area', '?')} level {int(d.get('level', 0))}"


class Teller:
    """What the report knows beyond one event: the scenario, the ruleset as played, the
    hose lines of the turn (to name a hose's unit and target) and the rulings already
    explained (each is explained once, where it first applies)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.hoses: dict[str, Mapping[str, Any]] = {}
        self.explained: set[str] = set()
        self.rulings: Mapping[str, str] = layout("reference_text").setting("rulings") or {}
        self.words: Mapping[str, str] = layout("reference_text").setting("modifier_reasons") or {}

    def turn(self, state: Mapping[str, Any]) -> None:
        for h in state.get("hoses", []) or []:
            if isinstance(h, Mapping) and h.get("id"):
                self.hoses[str(h["id"])] = h

    def hose(self, hid: Any) -> str:
        if not hid:
            return "a hose"
        h = self.hoses.get(str(hid))
        if h is None:
            return f"hose {hid}"
        target = f" on {_loc(h['target'])}" if h.get("target") else ""
        return f"{h.get('unit', '?')}'s hose {hid}{target}"

    def ruling(self, rid: str) -> str:
        if rid in self.explained or rid not in self.rulings:
            return rid
        self.explained.add(rid)
        return f"{rid}: {self.rulings[rid]}"

    def reasons(self, ev: Mapping[str, Any], where: tuple[Any, Any] | None) -> list[str]:
        """The roll's modifier as its reasons ("oil store -1"; one alone without its value), from the rule's own parts
        function called on the state the report replayed (``where``: the context and the
        state before the event's step); none when the parts do not add up to the logged
        modifier (a log the replay did not reproduce)."""
        if where is None:
            return []
        parts = modifier_parts(ev, *where)
        if parts is None or modifiers.total(parts) != int(ev.get("modifier", 0) or 0):
            return []
        said = [(p.value, self.words.get(p.key, p.key)) for p in parts if p.value]
        if len(said) == 1:
            return [said[0][1]]  # "+1: a neighbour burning"
        return [f"{why} {v:+d}" for v, why in said]


def _location(d: Any) -> Location | None:
    if not isinstance(d, Mapping) or "area" not in d:
        return None
    return (str(d["area"]), int(d.get("level", 0)))


def modifier_parts(
    ev: Mapping[str, Any], ctx: TurnContext, state: GameState
) -> list[modifiers.Part] | None:
    """The parts of a logged roll's modifier, by the rule's own function on ``state`` (the
    state at the start of the roll's step); None for a roll no parts function covers."""
    rule = str(ev.get("rule"))
    if rule in ("spread", "climb", "jump"):
        src, dst = _location(ev.get("from")), _location(ev.get("to"))
        if src is None or dst is None:
            return None
        fighting = modifiers.fighting_locations(state)
        return modifiers.spread_parts(ctx, state, src, dst, fighting)
    if rule == "growth":
        loc = _location(ev.get("at"))
        return None if loc is None else modifiers.growth_parts(ctx, loc, set(state.fire))
    if rule == "extinguish":
        h = state.hoses.get(str(ev.get("hose")))
        if h is None or ev.get("range") is None:
            return None
        return modifiers.stream_parts(ctx, state, h, int(ev["range"]))
    if rule == "casualty_status":
        loc = _location(ev.get("at"))
        return None if loc is None else modifiers.casualty_parts(ctx, state, loc)
    return None


def _rulings(ev: Mapping[str, Any]) -> list[str]:
    r = ev.get("ruling")
    if not r:
        return []
    if isinstance(r, list | tuple):
        return [str(x) for x in r]
    return [p.strip() for p in str(r).split(",") if p.strip()]


def event_text(
    ev: Mapping[str, Any], teller: Teller | None = None, seen: tuple[Any, Any] | None = None
) -> str:
    """One event of the turn log in plain English, with its roll, the reasons for its
    modifier (``seen``: the replayed context and state before its step) and the rulings
    it applies (explained on first use)."""
    rule = str(ev.get("rule", "?"))
    ok = bool(ev.get("success", True))
    yes, no = PHRASES.get(rule, (f"{rule.replace('_', ' ')} at {{at}}",) * 2)
    unit = str(ev.get("unit") or "")
    where = {
        "at": _loc(ev.get("at") or ev.get("to") or ev.get("from")),
        "src": _loc(ev.get("from") or ev.get("at")),
        "dst": _loc(ev.get("to") or ev.get("at")),
        "unit": unit or "a unit",
        "hose": teller.hose(ev.get("hose")) if teller else f"hose {ev.get('hose') or ''}".strip(),
    }
    text = (yes if ok else no).format(**where)
    if unit and unit not in text:
        text = f"{unit}: {text}"
    if rule == "hose_start" and teller and ev.get("hose"):
        h = teller.hoses.get(str(ev["hose"]))
        if h and h.get("target"):
            text += f", aimed at {_loc(h['target'])}"
    dice = ev.get("dice") or []
    roll = "+".join(str(d) for d in dice)
    mod = int(ev.get("modifier", 0) or 0)
    need = ev.get("need")
    bits = []
    if roll:
        why = teller.reasons(ev, seen) if teller and mod else []
        bits.append(
            f"rolled {roll}"
            + (f" {mod:+d}" if mod else "")
            + (f": {', '.join(why)}" if why else "")
        )
    if need and need not in ("table", "auto"):
        bits.append(f"needed {need}")
    for rid in _rulings(ev):
        bits.append(teller.ruling(rid) if teller else rid)
    return text[:1].upper() + text[1:] + (f" ({'; '.join(bits)})" if bits else "") + "."


def _score_rows(score: Mapping[str, Any], scenario: Scenario | None = None) -> list[list[str]]:
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
            place = o.get("building") or o.get("area")
            if scenario is not None and o.get("building"):
                b = scenario.building_by_id.get(str(o["building"]))
                place = b.name if b is not None and b.name else place
            detail = {
                "protect": place,
                "rescue": f"at least {o.get('at_least')} alive",
                "contain": f"at most {o.get('max_destroyed')} destroyed",
            }
            what = f"{o.get('type', 'objective')} {detail.get(str(o.get('type')), '') or ''}"
            met = o.get("met", o.get("success"))
            rows.append([f"Objective: {what}", "met" if met else "failed"])
    return rows


@dataclass
class Replay:
    """A game the report played itself: its log, its context, and for each turn the state
    before each step with the index of the step's first event (so each roll's modifier can
    be taken apart on the state its rule saw)."""

    log: dict[str, Any]
    ctx: TurnContext
    before: list[list[tuple[int, GameState]]]

    def where(self, turn: int, event: int) -> tuple[TurnContext, GameState] | None:
        """The context and the state at the start of the step of event ``event`` of the
        ``turn``-th turn played (0-based)."""
        if not 0 <= turn < len(self.before):
            return None
        found = None
        for first, state in self.before[turn]:
            if first > event:
                break
            found = state
        return None if found is None else (self.ctx, found)


def replay(scenario: Scenario, turns: int, seed: int | None) -> Replay:
    """Play ``turns`` turns with the engine's autopilot, keeping a copy of the state before
    each step (the game's own step table, each step wrapped; the log is the same)."""
    from fireground.engine.play.simulate import new_game

    game = new_game(scenario, seed)
    before: list[list[tuple[int, GameState]]] = []

    def keep(fn: Step) -> Step:
        def step(ctx: TurnContext, state: GameState) -> None:
            before[-1].append((len(ctx.events), state.copy()))
            fn(ctx, state)

        return step

    game.plan = [(n, keep(fn)) for n, fn in game.plan]
    for _ in range(turns):
        before.append([])
        game.step()
    return Replay(game.log_obj(), game.ctx, before)


def simulate_log(scenario: Scenario, turns: int, seed: int | None) -> dict[str, Any]:
    """Play ``turns`` turns with the engine's autopilot; the log object."""
    return replay(scenario, turns, seed).log


def replay_of(scenario: Scenario, log: Mapping[str, Any]) -> Replay | None:
    """The report's own replay of a given log (its seed, its number of turns), when it
    reproduces the log's events exactly (a log played with orders does not)."""
    turns = [t for t in log.get("turns", []) if isinstance(t, Mapping)]
    seed = log.get("seed")
    if not turns or not isinstance(seed, int):
        return None
    try:
        rep = replay(scenario, len(turns), seed)
    except Exception:  # a log of another scenario: no reasons, the report still prints
        return None
    mine = [t.get("events") for t in rep.log.get("turns", [])]
    theirs = [t.get("events") for t in turns]
    same = json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)
    return rep if same else None


def draw_hoses(c: Canvas, scenario: Scenario, view: MapView, hoses: list[Any]) -> None:
    """Hose lines on a small map: a blue line from the pump through the areas it runs to
    the branch, and a ring on the location it plays on."""
    st = style()
    c.saveState()
    c.setStrokeColor(st.setting("water_symbol"))
    c.setLineWidth(1.1)
    c.setLineCap(1)
    for h in hoses:
        if not isinstance(h, Mapping):
            continue
        pts = []
        for d in h.get("path", []) or []:
            area = d.get("area") if isinstance(d, Mapping) else None
            if area in scenario.area_by_id and (not pts or pts[-1][0] != area):
                pts.append((area, view.pt(*label_point(scenario, str(area)))))
        if len(pts) > 1:
            p = c.beginPath()
            p.moveTo(*pts[0][1])
            for _, (x, y) in pts[1:]:
                p.lineTo(x, y)
            c.drawPath(p, stroke=1, fill=0)
        t = h.get("target")
        if isinstance(t, Mapping) and t.get("area") in scenario.area_by_id:
            x, y = view.pt(*label_point(scenario, str(t["area"])))
            c.circle(x, y, 2.2, stroke=1, fill=0)
    c.restoreState()


def story(
    scenario: Scenario,
    log: Mapping[str, Any],
    width: float,
    base: float,
    map_h: float,
    rep: Replay | None = None,
) -> list[Flowable]:
    st = flow.styles(base)
    out: list[Flowable] = []
    seed = log.get("seed")
    out.append(
        flow.para(
            f"A sample of {len(log.get('turns', []))} turns played by the standing-orders autopilot "
            f"with seed {seed}. To replay it: fireground simulate FILE --seed {seed}, or load the "
            "scenario in the editor and play with the same seed. Maps show each area at its "
            "hottest fire (F) and the levels burning (L); dark areas are destroyed; blue lines "
            "are hoses from pump to branch, a blue ring the location a hose plays on. Locations "
            "are named by area and level (level 0 is the ground). Each roll gives the reasons "
            "for its modifier; a ruling is explained where it first applies.",
            st["body"],
        )
    )
    teller = Teller(scenario)
    map_w = width * 0.42
    tiny = ParagraphStyle("tiny", parent=st["small"], fontSize=6.2, leading=7.0)
    for t, entry in enumerate(log.get("turns", [])):
        state = entry.get("state", {}) or {}
        teller.turn(state)
        marks = Marks.from_log_state(state)
        every = entry.get("events", [])
        events = [e for e in every if isinstance(e, Mapping)]
        told = [
            event_text(e, teller, rep.where(t, k) if rep else None)
            for k, e in enumerate(every)
            if isinstance(e, Mapping)
            and (e.get("rule") not in ROUTINE or (e.get("success") and e.get("rule") != "bomb_run"))
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
        lines = told or ["A quiet turn."]
        style_ = st["small"] if len(lines) <= 30 else tiny  # every event, smaller if many
        fires = len(marks.fires)
        head = flow.para(f"Turn {entry.get('turn')} · {fires} location(s) burning", st["h2"])
        beside = max(1, int(map_h // (style_.leading + 0.5)) - 2)
        summary = flow.para(
            "Rolls that came good: " + "; ".join(counts) + "." if counts else "No fire rolls.",
            st["cell"],
        )
        texts = [summary] + [flow.para("• " + t, style_) for t in lines[:beside]]
        hoses = list(state.get("hoses", []) or [])

        def paint(c: Canvas, s: Scenario, v: MapView, m: Marks, hoses: list[Any] = hoses) -> None:
            draw_summary(c, s, v, m)
            draw_hoses(c, s, v, hoses)

        painter = fit_map(scenario, marks, paint)
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
        out += [flow.para("• " + t, style_) for t in lines[beside:]]
    score = log.get("score") or {}
    out.append(flow.para("Scorecard", st["h1"]))
    out.append(flow.table(_score_rows(score, scenario), st["cell"], [width * 0.6, width * 0.4]))
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
        rep: Replay | None = replay(scenario, turns, seed)
        assert rep is not None
        log = rep.log
    else:
        rep = replay_of(scenario, log)
    lay, width, base = report_page(paper)
    return flow.build(
        path,
        lay,
        story(scenario, log, width, base, lay.length("turn_map_height"), rep),
        title=f"Turn report: {scenario.name or 'untitled'}",
        subtitle=f"{len(log.get('turns', []))} simulated turns · seed {log.get('seed')}",
        footer=f"fireground turn report · seed {log.get('seed')}",
    )
