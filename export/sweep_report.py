"""The PDF of ``fireground sweep --out REPORT.pdf``.

Draws the plain data of a :class:`~fireground.engine.play.sweep.SweepReport`: the table of every
variant's objective chances with their 95% intervals, the variants closest to a 50% chance,
and for each varied key a plot of each objective's chance against the key's values (the
average over the other keys' values, with every single variant as a dot behind it).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from reportlab.lib.utils import simpleSplit

from fireground.engine.play.report import wilson
from fireground.engine.scenario.io import atomic_write

from .kit import FONT, FONT_BOLD
from .textdoc import MARGIN, TextDoc

#: one colour per objective (cycled), distinct in print and for common colour blindness
COLOURS = (
    (0.0, 0.45, 0.70),
    (0.84, 0.37, 0.0),
    (0.0, 0.62, 0.45),
    (0.8, 0.47, 0.65),
    (0.34, 0.34, 0.34),
    (0.9, 0.62, 0.0),
)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _table(d: TextDoc, rep: Any) -> None:
    """One row per variant: its values, then per objective a bar with the interval."""
    n_obj = len(rep.objectives)
    label_w = min(200.0, 40.0 + 70.0 * len(rep.keys))
    bar_w = (d.w - 2 * MARGIN - label_w) / max(n_obj, 1) - 8
    d.need(30)
    c = d.c
    c.setFont(FONT_BOLD, 8)
    for k in range(n_obj):
        x = MARGIN + label_w + k * (bar_w + 8)
        c.setFillColorRGB(*COLOURS[k % len(COLOURS)])
        c.drawString(x, d.y - 9, f"[{k + 1}]")
    c.setFillColorRGB(0, 0, 0)
    c.drawString(MARGIN, d.y - 9, "variant")
    d.y -= 14
    for v in rep.variants:
        d.need(14)
        c.setFont(FONT, 7)
        c.setFillColorRGB(0, 0, 0)
        label = simpleSplit(v.label, FONT, 7, label_w - 6)
        c.drawString(MARGIN, d.y - 8, label[0] if label else "")
        for k, o in enumerate(v.objectives):
            x = MARGIN + label_w + k * (bar_w + 8)
            c.setStrokeColorRGB(0.7, 0.7, 0.7)
            c.setLineWidth(0.4)
            c.rect(x, d.y - 10, bar_w - 34, 8, stroke=1, fill=0)
            c.setStrokeColorRGB(0.8, 0.8, 0.8)
            c.line(x + (bar_w - 34) / 2, d.y - 11, x + (bar_w - 34) / 2, d.y - 1)
            r, g, b = COLOURS[k % len(COLOURS)]
            c.setFillColorRGB(r + (1 - r) * 0.6, g + (1 - g) * 0.6, b + (1 - b) * 0.6)
            span = bar_w - 34
            c.rect(x + span * o.low, d.y - 10, span * (o.high - o.low), 8, stroke=0, fill=1)
            c.setFillColorRGB(r, g, b)
            c.rect(x + span * o.chance - 1, d.y - 11, 2, 10, stroke=0, fill=1)
            c.setFillColorRGB(0, 0, 0)
            c.drawRightString(x + bar_w - 2, d.y - 8, _pct(o.chance))
        d.y -= 13
    d.y -= 8


def _plot(d: TextDoc, rep: Any, j: int) -> None:
    """Each objective's chance against the values of key ``j``."""
    key = rep.keys[j]
    values: list[str] = []
    for v in rep.variants:
        x = v.values[j][1]
        if x not in values:
            values.append(x)
    hgt, wid = 170.0, d.w - 2 * MARGIN - 150
    d.need(hgt + 60)
    d.text(f"Chance met against {key}", 11, bold=True, gap=2)
    c, x0, y0 = d.c, MARGIN + 30, d.y - hgt - 6
    c.setStrokeColorRGB(0.5, 0.5, 0.5)
    c.setLineWidth(0.5)
    c.rect(x0, y0, wid, hgt, stroke=1, fill=0)
    c.setFont(FONT, 7)
    c.setFillColorRGB(0, 0, 0)
    for p in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y0 + hgt * p
        c.drawRightString(x0 - 3, y - 2, _pct(p))
        c.setStrokeColorRGB(0.85, 0.85, 0.85)
        if 0 < p < 1:
            c.setDash(2, 2) if p == 0.5 else c.setDash()
            c.line(x0, y, x0 + wid, y)
    c.setDash()
    step = wid / len(values)

    def xpos(i: int) -> float:
        return x0 + step * (i + 0.5)

    for i, val in enumerate(values):
        c.setFillColorRGB(0, 0, 0)
        c.drawCentredString(xpos(i), y0 - 10, val)
    c.drawCentredString(x0 + wid / 2, y0 - 21, key)
    n_obj = len(rep.objectives)
    for k in range(n_obj):
        r, g, b = COLOURS[k % len(COLOURS)]
        dx = (k - (n_obj - 1) / 2) * 3.0  # objectives side by side at each value
        pts = []
        for i, val in enumerate(values):
            rows = [v.objectives[k] for v in rep.variants if v.values[j][1] == val]
            met, games = sum(o.met for o in rows), sum(o.games for o in rows)
            chance = met / max(games, 1)
            x = xpos(i) + dx
            if len(rows) > 1:
                c.setFillColorRGB(r + (1 - r) * 0.4, g + (1 - g) * 0.4, b + (1 - b) * 0.4)
                for o in rows:  # every variant with this value, small
                    c.circle(x, y0 + hgt * o.chance, 1.6, stroke=0, fill=1)
            else:  # one variant: its own 95% interval (pooled games share seeds: none)
                lo, hi = wilson(met, games)
                c.setStrokeColorRGB(r, g, b)
                c.setLineWidth(0.8)
                c.line(x, y0 + hgt * lo, x, y0 + hgt * hi)
            pts.append((x, y0 + hgt * chance))
        c.setLineWidth(1.2)
        path = c.beginPath()
        for i, (x, y) in enumerate(pts):
            (path.moveTo if i == 0 else path.lineTo)(x, y)
        c.drawPath(path, stroke=1, fill=0)
        c.setFillColorRGB(r, g, b)
        for x, y in pts:
            c.circle(x, y, 2.2, stroke=0, fill=1)
    # legend at the right
    lx, ly = x0 + wid + 10, y0 + hgt - 8
    c.setFont(FONT, 7)
    for k, label in enumerate(rep.objectives):
        c.setFillColorRGB(*COLOURS[k % len(COLOURS)])
        c.rect(lx, ly - 1, 8, 6, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        for t, line in enumerate(simpleSplit(f"[{k + 1}] {label}", FONT, 7, 105)):
            c.drawString(lx + 12, ly - 9 * t, line)
            if t:
                ly -= 9
        ly -= 14
    d.y = y0 - 30
    if len(rep.variants) > len(values):
        d.text(
            "Large dots: the chance over all the variants with that value (the other keys' values "
            "pooled); small dots: each of those variants alone. (The variants play the same "
            "seeds, so a pooled chance has no simple interval: see the table for each one's.)",
            7,
            gap=8,
        )


def write_sweep_report(rep: Any, path: str | Path) -> None:
    """Write the sweep PDF for ``rep`` (a SweepReport) atomically."""
    buf = io.BytesIO()
    d = TextDoc(buf, f"Sweep: {rep.scenario}", "fireground sweep", invariant=True)
    d.text(f"Balance sweep: {rep.scenario or rep.file}", 16, bold=True)
    d.text(
        f"{len(rep.variants)} variants x {rep.games} autopilot games, seed {rep.seed}; every "
        "variant plays the same seeds, so differences come from what was varied.",
        9,
        gap=8,
    )
    d.text("Objectives", 12, bold=True)
    for k, label in enumerate(rep.objectives):
        d.text(f"[{k + 1}] {label}", 9, gap=0)
    d.y -= 6
    if rep.objectives:
        d.text("Closest to a 50% chance", 12, bold=True)
        for k, label in enumerate(rep.objectives):
            best = rep.closest(k, 1)[0]
            o = best.objectives[k]
            d.text(
                f"[{k + 1}] {label}: {best.label}: {_pct(o.chance)} ({_pct(o.low)}-{_pct(o.high)})",
                9,
                gap=0,
            )
        if len(rep.objectives) > 1:
            fair = rep.most_balanced(1)[0]
            d.text(
                f"Every objective at once: {fair.label}: "
                + ", ".join(f"[{k + 1}] {_pct(o.chance)}" for k, o in enumerate(fair.objectives)),
                9,
                gap=0,
            )
        d.y -= 8
        d.text("Chance met per variant, with its 95% interval (the grey line marks 50%)", 12,
               bold=True)  # fmt: skip
        _table(d, rep)
        for j in range(len(rep.keys)):
            _plot(d, rep, j)
    else:
        d.text("The scenario sets no objectives: there is nothing to compare.", 10)
    d.c.save()
    atomic_write(path, buf.getvalue(), backup=False)
