"""The umpire's briefing: the scenario's story, conditions, forces, objectives and the
start map."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether, Spacer
from reportlab.platypus.flowables import Flowable

from fireground.engine.board.model import Objective, Scenario

from ... import flow
from ...kit import paper_size
from ...layout import Box, Layout, layout
from ...mapdraw import MapView, Marks, draw_level, draw_summary
from ...plans import level_extent
from .cards import unit_catalogue


def fit_map(
    scenario: Scenario, marks: Marks, draw: Callable[[Canvas, Scenario, MapView, Marks], object]
) -> Callable[[Canvas, Box], None]:
    """A map painter scaled to fill its box (north up), with a frame."""
    ext = level_extent(scenario, 0)

    def paint(c: Canvas, box: Box) -> None:
        s = min(box.width / ext.width, box.height / ext.height)
        view = MapView(
            ext.minx,
            ext.miny,
            s,
            box.x + (box.width - ext.width * s) / 2,
            box.y + (box.height - ext.height * s) / 2,
        )
        draw(c, scenario, view, marks)
        c.setLineWidth(0.4)
        c.rect(box.x, box.y, box.width, box.height, stroke=1, fill=0)

    return paint


def area_span(ids: list[str]) -> str:
    """A building's areas in short: ``SM1–SM9`` for a run of one prefix, else listed."""
    runs: dict[str, list[int]] = {}
    other: list[str] = []
    for i in ids:
        m = re.fullmatch(r"(\D+)(\d+)", i)
        if m:
            runs.setdefault(m.group(1), []).append(int(m.group(2)))
        else:
            other.append(i)
    parts = []
    for prefix, nums in runs.items():
        nums.sort()
        if len(nums) > 2 and nums == list(range(nums[0], nums[-1] + 1)):
            parts.append(f"{prefix}{nums[0]}–{prefix}{nums[-1]}")
        else:
            parts += [f"{prefix}{n}" for n in nums]
    return ", ".join(parts + other)


def objective_text(o: Objective, scenario: Scenario) -> str:
    if o.type == "protect":
        if o.building:
            b = scenario.building_by_id.get(o.building)
            return f"Protect {b.name if b and b.name else o.building}: not destroyed at the end."
        return f"Protect area {o.area}: not destroyed at the end."
    if o.type == "rescue":
        return f"Rescue: find at least {o.at_least} casualties alive."
    if o.type == "contain":
        return f"Contain: no more than {o.max_destroyed} locations destroyed."
    return o.type


def start_lines(scenario: Scenario) -> list[str]:
    st = scenario.start
    out = [f"Fire {v.value} in {v.area}, level {v.level}." for v in st.fires]
    out += [f"Embers in {r.area}, level {r.level}." for r in st.embers]
    out += [f"Damp {v.value} in {v.area}, level {v.level}." for v in st.damp if v.value]
    out += [f"Damage {v.value} in {v.area}, level {v.level}." for v in st.damage]
    out += [f"Rubble in {a}." for a in st.rubble]
    out += [f"Crater in {a}." for a in st.craters]
    if st.all_clear:
        out.append("The All Clear has already sounded.")
    return out or ["A quiet start: nothing burns yet."]


def story(scenario: Scenario, width: float, base: float, map_h: float) -> list[Flowable]:
    st = flow.styles(base)
    out: list[Flowable] = []
    if scenario.description:
        out.append(flow.para(scenario.description.strip(), st["body"]))
    wind = (
        f"from {scenario.wind.from_}{', strong' if scenario.wind.strong else ''}"
        if scenario.wind.from_
        else "calm"
    )
    facts = [
        ["Game length", f"{scenario.turns} turns"],
        ["Wind", wind],
        [
            "Bombing",
            "raid in progress: roll each turn until the All Clear"
            if scenario.bombing and not scenario.start.all_clear
            else "no further bombing",
        ],
        [
            "Water mains",
            "working: hydrants give water"
            if scenario.mains == "working"
            else "failed: hydrants are dry",
        ],
        [
            "Scale",
            f"one area {scenario.scale.area_cm:g} cm, figures {scenario.scale.figure_mm:g} mm",
        ],
        [
            "Ruleset",
            scenario.ruleset
            + (
                f" with {len(scenario.house_rules)} house rule(s): "
                + ", ".join(f"{k} = {v}" for k, v in scenario.house_rules.items())
                if scenario.house_rules
                else ""
            ),
        ],
    ]
    if scenario.seed is not None:
        facts.append(["Seed", str(scenario.seed)])
    out.append(flow.para("Conditions", st["h1"]))
    out.append(flow.table(facts, st["cell"], [width * 0.22, width * 0.78], header=False))
    out.append(flow.para("Start map", st["h1"]))
    out.append(
        flow.para(
            "The ground level at the start. A building's name is written inside one of its "
            "areas where it fits; the Buildings table below gives every building's areas.",
            st["small"],
        )
    )
    out.append(
        flow.MapFlowable(
            width,
            map_h,
            fit_map(
                scenario,
                Marks.from_start(scenario),
                lambda c, s, v, m: draw_level(
                    c, s, v, 0, m, symbol_size=layout("map_style").length("small_symbol")
                ),
            ),
        )
    )
    out.append(Spacer(1, base * 0.5))
    fires_map = flow.MapFlowable(
        width,
        map_h * 0.8,
        fit_map(scenario, Marks.from_start(scenario), lambda c, s, v, m: draw_summary(c, s, v, m)),
    )
    heading = flow.para(
        "Fires at the start on every level (F = fire, L = the levels burning; "
        "the map above shows the ground level)",
        st["h2"],
    )
    out.append(KeepTogether([heading, fires_map]))
    out.append(Spacer(1, base * 0.5))
    out.append(flow.para("Situation at turn 1", st["h2"]))
    out += [flow.para("• " + line, st["body"]) for line in start_lines(scenario)]
    if scenario.buildings:
        out.append(flow.para("Buildings", st["h1"]))
        rows = [["id", "name", "areas", "levels"]] + [
            [
                b.id,
                b.name or b.id,
                area_span([a.id for a in scenario.areas if a.building == b.id]),
                f"{b.levels}" + (" + basement" if b.basement else ""),
            ]
            for b in scenario.buildings
        ]
        out.append(
            flow.table(rows, st["cell"], [width * 0.16, width * 0.46, width * 0.24, width * 0.14])
        )
    out.append(flow.para("Forces and arrivals", st["h1"]))
    units = unit_catalogue(scenario)
    rows = [["id", "unit", "where and when"]]
    for u in sorted(scenario.forces, key=lambda u: (u.arrives, u.id)):
        name = str(units.get(u.type, {}).get("name", u.type))
        where = (
            f"{u.area}" + (f", level {u.level}" if u.level else "")
            if u.area
            else (u.entry or "any entry")
        )
        # only a unit placed in an area and arriving on turn 1 starts on the table
        on_table = u.area is not None and u.arrives <= 1
        when = "on the table at the start" if on_table else f"arrives turn {u.arrives}"
        rows.append([u.id, name, f"{where}: {when}"])
    if len(rows) == 1:
        rows.append(["—", "no forces listed", ""])
    out.append(flow.table(rows, st["cell"], [width * 0.14, width * 0.38, width * 0.48]))
    out.append(flow.para("Objectives", st["h1"]))
    objs = [objective_text(o, scenario) for o in scenario.objectives] or [
        "Save what you can: the scorecard counts destroyed locations, fires and casualties."
    ]
    out += [flow.para("• " + t, st["body"]) for t in objs]
    return out


def report_page(paper: str) -> tuple[Layout, float, float]:
    """The report page layout (briefing, turn report) on ``paper``, with the width and base
    font size of its body."""
    pw, ph = paper_size(paper)
    lay = layout("report_page", pw, ph)
    body = lay.box("body")
    return lay, body.width, float(body.get("font_size", 8.5))


def write_briefing(scenario: Scenario, path: Path, paper: str = "a4") -> Path:
    lay, width, base = report_page(paper)
    return flow.build(
        path,
        lay,
        story(scenario, width, base, lay.length("map_height")),
        title=scenario.name or "Untitled scenario",
        subtitle="Briefing for the umpire and players",
        footer="fireground briefing",
    )
