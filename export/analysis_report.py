"""The PDF of ``fireground analyze --out REPORT.pdf``.

Draws the plain data of an :class:`~fireground.engine.play.analysis.AnalysisReport`: the verdict,
objective chances with their intervals, the All Clear curve, heat maps of the chance each
location burns and is destroyed over the plan of every level, the scorecard histograms and,
with ``--against``, the significant differences.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from fireground.engine.board.model import Scenario
from fireground.engine.play.report import judged_text

from .kit import FONT, FONT_BOLD
from .textdoc import MARGIN, TextDoc

# white (0) -> yellow -> orange -> deep red (1)
RAMP = (
    (0.0, (1.0, 1.0, 1.0)),
    (0.25, (1.0, 0.93, 0.55)),
    (0.6, (0.98, 0.55, 0.15)),
    (1.0, (0.6, 0.05, 0.05)),
)


def heat_colour(x: float) -> tuple[float, float, float]:
    """A colour for a chance 0..1 on a white-to-dark-red ramp."""
    x = min(max(x, 0.0), 1.0)
    for (x0, c0), (x1, c1) in itertools.pairwise(RAMP):
        if x <= x1:
            t = (x - x0) / (x1 - x0) if x1 > x0 else 0.0
            r, g, b = (c0[i] + (c1[i] - c0[i]) * t for i in range(3))
            return (r, g, b)
    return RAMP[-1][1]


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _objectives(d: TextDoc, report: Any) -> None:
    if not report.objectives:
        return
    d.text("Objectives: chance met, with its 95% interval", 12, bold=True)
    bar_x, bar_w = MARGIN + 250, d.w - 2 * MARGIN - 250
    for o in report.objectives:
        judged = o.mean is not None
        d.need(26 if judged else 18)
        c = d.c
        c.setFont(FONT, 9)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(MARGIN, d.y - 10, f"{o.label}: {_pct(o.chance)}")
        if judged:  # what the objective is judged on, under its name
            c.setFont(FONT, 7)
            c.setFillColorRGB(0.35, 0.35, 0.35)
            c.drawString(MARGIN + 8, d.y - 19, f"{judged_text(o)} a game on average")
        c.setStrokeColorRGB(0.6, 0.6, 0.6)
        c.rect(bar_x, d.y - 12, bar_w, 10, stroke=1, fill=0)
        c.setFillColorRGB(0.75, 0.85, 1.0)
        c.rect(bar_x + bar_w * o.low, d.y - 12, bar_w * (o.high - o.low), 10, stroke=0, fill=1)
        c.setFillColorRGB(0.1, 0.2, 0.6)
        c.rect(bar_x + bar_w * o.chance - 1, d.y - 13, 2, 12, stroke=0, fill=1)
        d.y -= 26 if judged else 18
    d.y -= 6


def _all_clear(d: TextDoc, report: Any) -> None:
    series = report.all_clear_by_turn
    if len(series) < 2 or max(series) <= 0:
        return
    d.text("Chance the All Clear has sounded, by turn", 12, bold=True)
    hgt, wid = 90.0, d.w - 2 * MARGIN - 30
    d.need(hgt + 20)
    c, x0, y0 = d.c, MARGIN + 25, d.y - hgt
    c.setStrokeColorRGB(0.5, 0.5, 0.5)
    c.rect(x0, y0, wid, hgt, stroke=1, fill=0)
    c.setFont(FONT, 7)
    c.setFillColorRGB(0, 0, 0)
    c.drawRightString(x0 - 3, y0 - 2, "0%")
    c.drawRightString(x0 - 3, y0 + hgt - 4, "100%")
    c.drawString(x0, y0 - 10, "turn 0")
    c.drawRightString(x0 + wid, y0 - 10, f"turn {len(series) - 1}")
    c.setStrokeColorRGB(0.1, 0.2, 0.6)
    path = c.beginPath()
    for t, v in enumerate(series):
        x, y = x0 + wid * t / (len(series) - 1), y0 + hgt * v
        (path.moveTo if t == 0 else path.lineTo)(x, y)
    c.drawPath(path, stroke=1, fill=0)
    d.y = y0 - 20


def _heat_map(
    d: TextDoc,
    scenario: Scenario,
    values: dict[tuple[str, int], float],
    level: int,
    title: str,
    box_h: float,
) -> None:
    minx, miny, maxx, maxy = scenario.bounds()
    wid = d.w - 2 * MARGIN
    scale = min(wid / max(maxx - minx, 1e-9), (box_h - 30) / max(maxy - miny, 1e-9))
    d.need(box_h)
    c = d.c
    c.setFont(FONT_BOLD, 10)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(MARGIN, d.y - 10, title)
    top = d.y - 18
    for a in scenario.areas:
        v = values.get((a.id, level))
        pts = [(MARGIN + (x - minx) * scale, top - (maxy - y) * scale) for x, y in a.polygon]
        path = c.beginPath()
        path.moveTo(*pts[0])
        for p in pts[1:]:
            path.lineTo(*p)
        path.close()
        if v is None:
            c.setFillColorRGB(0.93, 0.93, 0.93)
        else:
            c.setFillColorRGB(*heat_colour(v))
        c.setStrokeColorRGB(0.4, 0.4, 0.4)
        c.setLineWidth(0.3)
        c.drawPath(path, stroke=1, fill=1)
        if v is not None and a.is_building:
            cx, cy = a.centroid
            px, py = MARGIN + (cx - minx) * scale, top - (maxy - cy) * scale
            c.setFont(FONT, 5)
            c.setFillColorRGB(0, 0, 0) if v < 0.7 else c.setFillColorRGB(1, 1, 1)
            c.drawCentredString(px, py + 1, a.id)
            c.drawCentredString(px, py - 5, _pct(v))
    d.y = top - (maxy - miny) * scale - 12


def _legend(d: TextDoc) -> None:
    d.need(24)
    c, n, wid = d.c, 20, 200.0
    for i in range(n):
        c.setFillColorRGB(*heat_colour(i / (n - 1)))
        c.rect(MARGIN + wid * i / n, d.y - 10, wid / n + 0.5, 10, stroke=0, fill=1)
    c.setFont(FONT, 7)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(MARGIN, d.y - 19, "0%")
    c.drawRightString(MARGIN + wid, d.y - 19, "100%")
    c.drawString(MARGIN + wid + 10, d.y - 9, "grey: no such level here")
    d.y -= 26


def _histograms(d: TextDoc, report: Any) -> None:
    d.page()
    d.text("Scorecard at the end of the game (games per value)", 12, bold=True)
    for s in report.scorecard:
        if not s.values or (len(s.values) == 1 and s.values[0] == 0):
            continue
        hgt = 70.0
        d.need(hgt + 30)
        c, x0, y0 = d.c, MARGIN, d.y - hgt - 12
        c.setFont(FONT_BOLD, 9)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(x0, d.y - 10, f"{s.name} (mean {s.mean:.1f})")
        lo, hi = min(s.values), max(s.values)
        bins = hi - lo + 1
        wid = d.w - 2 * MARGIN
        bw = wid / bins
        top = max(s.counts)
        c.setFillColorRGB(0.85, 0.35, 0.1)
        for v, k in zip(s.values, s.counts, strict=True):
            c.rect(x0 + (v - lo) * bw, y0, max(bw - 1, 0.5), hgt * k / top, stroke=0, fill=1)
        c.setFont(FONT, 7)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(x0, y0 - 9, str(lo))
        c.drawRightString(x0 + wid, y0 - 9, str(hi))
        d.y = y0 - 18


def _comparison(d: TextDoc, report: Any) -> None:
    if report.comparison is None:
        return
    d.page()
    sig = sorted((x for x in report.comparison if x.significant), key=lambda x: x.p_value)
    d.text(f"Against {report.against}", 12, bold=True)
    d.text(
        f"{len(sig)} of {len(report.comparison)} differences are significant (two-proportion "
        "z-tests, Holm's correction at 5% over all of them).",
        9,
    )
    for x in sig[:60]:
        d.text(
            f"{x.label}: {_pct(x.chance)} here, {_pct(x.other)} in the other (z = {x.z:+.1f})",
            9,
            gap=0,
        )


def write_analysis_report(report: Any, scenario: Scenario, path: str | Path) -> None:
    """Write the analysis PDF for ``report`` (an AnalysisReport) of ``scenario``."""
    d = TextDoc(path, f"Analysis: {report.scenario}", "fireground analysis")
    d.text(f"Balance analysis: {report.scenario or report.file}", 16, bold=True)
    d.text(
        f"{report.games} games of {report.turns} turns, "
        f"{'fire and bombs alone (no response)' if report.mode == 'no-response' else 'autopilot'}"
        f", seed {report.seed}",
        9,
    )
    d.text("Verdict", 12, bold=True)
    d.text(report.verdict, 10, gap=10)
    _objectives(d, report)
    d.text(
        "Scorecard means: " + ", ".join(f"{s.name} {s.mean:.1f}" for s in report.scorecard),
        9,
        gap=10,
    )
    _all_clear(d, report)
    burn = {(s.area, s.level): s.burn for s in report.locations}
    dest = {(s.area, s.level): s.destroyed for s in report.locations}
    levels = sorted({s.level for s in report.locations})
    box_h = (d.h - 2 * MARGIN - 60) / 2
    for lv in levels:
        d.page()
        name = "ground" if lv == 0 else "basement" if lv < 0 else f"level {lv}"
        _legend(d)
        _heat_map(d, scenario, burn, lv, f"Chance it burns: {name}", box_h)
        _heat_map(d, scenario, dest, lv, f"Chance it is destroyed: {name}", box_h)
    _histograms(d, report)
    _comparison(d, report)
    d.c.save()
