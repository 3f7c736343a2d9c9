"""The turn report: N simulated turns, each with a small map of the state at its end and
its events told in plain English, then the final scorecard and the seed to replay it.

It reads the turn log of ``scenario-format.md`` (``game.log_obj()``), so any log written
by ``fireground simulate --log`` can be printed the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether
from reportlab.platypus.flowables import Flowable

from fireground.engine.board.model import Scenario

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
        from .reference import Rules

        self.scenario = scenario
        self.rules = Rules(scenario)
        self.hoses: dict[str, Mapping[str, Any]] = {}
        self.explained: set[str] = set()
        self.rulings: Mapping[str, str] = layout("reference_text").setting("rulings") or {}

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

    def store_at(self, d: Any) -> str:
        if not isinstance(d, Mapping):
            return ""
        for f in self.scenario.features:
            if (
                f.type.value == "store"
                and f.area == d.get("area")
                and (f.level or 0) == int(d.get("level", 0))
            ):
                return str(f.material.value if f.material else "")
        return ""

    def reasons(self, ev: Mapping[str, Any], mod: int) -> list[str]:
        """The modifier taken apart into its reasons, as far as the event and the map tell."""
        rule = str(ev.get("rule"))
        rulings = _rulings(ev)
        parts: list[tuple[int, str]] = []
        rest_label = ""
        get = self.rules.get
        if rule in ("spread", "jump"):
            if "R-2" in rulings:
                parts.append((int(get("spread.strong_downwind") or 0), "strong wind, downwind"))
            store = self.store_at(ev.get("to"))
            if store in ("oil", "petrol"):
                parts.append((int(get(f"spread.{store}_store") or 0), f"{store} store (R-4)"))
            rest = mod - sum(v for v, _ in parts)
            rest_label = "damp or a hose team in the target" if rest > 0 else "target in embers"
        elif rule == "growth":
            if self.store_at(ev.get("at")) == "wood":
                parts.append((int(get("growth.wood_store") or 0), "wood store"))
            rest_label = "a neighbour burning"
        elif rule == "extinguish" and ev.get("range") is not None:
            parts.append(
                (int(get(f"firefighting.range.{ev['range']}") or 0), f"range {ev['range']}")
            )
            rest_label = "the crew (tired, exhausted, extra crews or no one at the branch)"
        rest = mod - sum(v for v, _ in parts)
        if rest and rest_label:
            parts.append((rest, rest_label))
        elif rest:
            return []
        return [f"{v:+d} {why}" for v, why in parts if v]


def _rulings(ev: Mapping[str, Any]) -> list[str]:
    r = ev.get("ruling")
    if not r:
        return []
    if isinstance(r, list | tuple):
        return [str(x) for x in r]
    return [p.strip() for p in str(r).split(",") if p.strip()]


def event_text(ev: Mapping[str, Any], teller: Teller | None = None) -> str:
    """One event of the turn log in plain English, with its roll, the reasons for its
    modifier and the rulings it applies (explained on first use)."""
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
        why = teller.reasons(ev, mod) if teller and mod else []
        bits.append(
            f"rolled {roll}"
            + (f" {mod:+d}" if mod else "")
            + (f" ({', '.join(why)})" if why else "")
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


def simulate_log(scenario: Scenario, turns: int, seed: int | None) -> dict[str, Any]:
    """Play ``turns`` turns with the engine's autopilot; the log object."""
    from fireground.engine.play.simulate import new_game

    game = new_game(scenario, seed)
    game.run(turns)
    log: dict[str, Any] = game.log_obj()
    return log


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
    for entry in log.get("turns", []):
        state = entry.get("state", {}) or {}
        teller.turn(state)
        marks = Marks.from_log_state(state)
        events = [e for e in entry.get("events", []) if isinstance(e, Mapping)]
        told = [
            event_text(e, teller)
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
