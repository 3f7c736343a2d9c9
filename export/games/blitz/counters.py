"""The counters sheet: fire, damp and damage 1-5, embers, rubble, craters, buried
casualties, the All Clear and hose strips, sized for the scenario's areas, with cut lines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import Scenario

from ... import symbols as sym
from ...kit import FONT, FONT_BOLD, draw_text, new_canvas, paper_size
from ...layout import Layout, layout
from .countmix import GAMES, Mix, measure

LABELS = {
    "embers": "EMBERS",
    "rubble": "RUBBLE",
    "crater": "CRATER",
    "casualty": "BURIED",
    "all_clear": "ALL CLEAR",
}


def counter_side(lay: Layout, area_cm: float) -> float:
    side = area_cm * lay.length("per_area_cm")
    return max(lay.length("min_side"), min(lay.length("max_side"), side))


def scenario_basis(scenario: Scenario | None, lay: Layout) -> dict[str, int]:
    """What the counter quantities scale with (see ``basis`` in counters.yaml)."""
    if scenario is None:
        return {k: int(v) for k, v in lay.setting("default_basis").items()}
    from fireground.engine.board.model import FeatureType

    from .cards import unit_catalogue

    catalogue = unit_catalogue(scenario)
    hose = sum(int(catalogue.get(u.type, {}).get("hose_lengths", 0) or 0) for u in scenario.forces)
    return {
        "locations": sum(len(scenario.levels_of(a.id)) for a in scenario.areas if a.building),
        "areas": len(scenario.areas),
        "occupants": sum(f.count or 0 for f in scenario.features_of(FeatureType.OCCUPANTS)),
        "hose": 2 * hose,  # a length covers two areas: two one-area strips
    }


def _in_start(scenario: Scenario | None) -> dict[tuple[str, Any], int]:
    """How many counters of each (kind, value) the start state puts on the table."""
    out: dict[tuple[str, Any], int] = {}
    if scenario is None:
        return out
    st = scenario.start

    def add(key: tuple[str, Any]) -> None:
        out[key] = out.get(key, 0) + 1

    for v in st.fires:
        add(("fire", v.value))
    for v in st.damp:
        if v.value > 0:
            add(("damp", v.value))
    for v in st.damage:
        add(("damage", v.value))
    for _ in st.embers:
        add(("embers", ""))
    for _ in st.rubble:
        add(("rubble", ""))
    for _ in st.craters:
        add(("crater", ""))
    return out


def counter_counts(
    scenario: Scenario | None, lay: Layout, mix: Mix | None = None
) -> dict[tuple[str, Any], int]:
    """How many of each (kind, value) counter to print, and of ("hose", "") strips.

    With a measured ``mix`` (:func:`countmix.measure`): the 90th percentile of each kind's
    peak in play over the autopilot games, at least the layout's minimum. Without one, an
    estimate from the map: a share of the scenario's basis kept within the layout's min and
    cap. Never fewer than the start state uses; hose strips cover every length the forces
    carry (two half-length strips a length)."""
    basis = scenario_basis(scenario, lay)
    kinds = lay.setting("basis")
    start = _in_start(scenario)
    out: dict[tuple[str, Any], int] = {}
    for kind, value, share, lo, hi in lay.setting("counters"):
        key = (str(kind), value)
        if mix is not None:
            n = max(int(lo), mix.need.get(key, 0))
        else:
            n = min(max(round(float(share) * basis[str(kinds[str(kind)])]), int(lo)), int(hi))
        out[key] = max(n, start.get(key, 0))
    out[("hose", "")] = max(basis["hose"], int(lay.setting("hose_strips_min")))
    return out


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    return "#000000" if contrast(fill, "#000000") >= contrast(fill, "#ffffff") else "#ffffff"


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2) of a ``#rrggbb`` colour."""

    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def counter_fill(lay: Layout, kind: str, value: Any) -> str:
    colours = lay.setting("colours")
    return str(colours["fire"][int(value) - 1] if kind == "fire" else colours.get(kind, "#ffffff"))


def _draw_counter(
    c: Canvas, lay: Layout, kind: str, value: Any, x: float, y: float, s: float, caption: str = ""
) -> None:
    fill = counter_fill(lay, kind, value)
    ink = text_colour(fill)
    c.saveState()
    c.setFillColor(fill)
    c.rect(x, y, s, s, stroke=0, fill=1)
    cx = x + s / 2
    icon = kind if kind in sym.LEGEND else None
    if kind in ("all_clear", "tired", "exhausted", "ladder"):
        words = {
            "all_clear": ("ALL", "CLEAR"),
            "tired": ("TIRED", "-1 to fight"),
            "exhausted": ("EXHAUSTED", "-2 to fight"),
            "ladder": ("LADDER", f"level {value}"),
        }[kind]
        c.setFillColor(ink if kind != "all_clear" else "#14532d")
        for word, font, at in ((words[0], FONT_BOLD, 0.6), (words[1], FONT, 0.36)):
            size = min(s * 0.17, 0.9 * s / c.stringWidth(word, font, 1.0))
            c.setFont(font, size)
            c.drawCentredString(cx, y + s * at, word)
    elif icon:
        # the icon sits right of the value, so the digit never covers it
        c.saveState()
        sym.LEGEND[icon][0](c, x + s * 0.62, y + s * 0.52, s * 0.42, "")
        c.restoreState()
    c.setFillColor(ink)
    if value not in ("", None) and kind != "ladder":
        c.setFont(FONT_BOLD, s * 0.34)
        c.drawString(x + s * 0.08, y + s * 0.56, str(value))
    label = caption or (
        f"{kind.upper()} {value}" if value not in ("", None) else LABELS.get(kind, "")
    )
    if kind not in ("all_clear", "tired", "exhausted") or caption:
        c.setFont(FONT, s * 0.14)
        c.drawCentredString(cx, y + s * 0.08, label)
    c.restoreState()


#: One thing to cut out: (kind, value, caption).
Item = tuple[str, Any, str]


def extra_items(scenario: Scenario | None, lay: Layout) -> dict[str, list[Item]]:
    """Ladder markers (one per ladder the forces carry), stand labels (one per unit and
    stand) and the bomb-drop squares of the largest stick."""
    out: dict[str, list[Item]] = {"ladder": [], "stand": [], "bomb": []}
    if scenario is None:
        return out
    from fireground.engine.core.ruleset import load_ruleset
    from fireground.engine.games.blitz.state import initial_state

    from .cards import unit_catalogue

    catalogue = unit_catalogue(scenario)
    for u in scenario.forces:
        for ladder in catalogue.get(u.type, {}).get("ladders", []) or []:
            name = str(ladder.get("name", "ladder"))
            out["ladder"].append(("ladder", int(ladder.get("rating", 1)), f"{u.id} {name}"))
    rules = load_ruleset(scenario.ruleset, dict(scenario.house_rules))
    for unit in initial_state(scenario, rules).units.values():
        out["stand"].append(("stand", unit.id, unit.type.replace("_", " ")))
    load = rules.get("bombing.load", {}) or {}
    he = max((int(v.get("he", 0)) for v in load.values()), default=0)
    inc = max((int(v.get("incendiary", 0)) for v in load.values()), default=0)
    out["bomb"] = [("bomb", "HE", "")] * he + [("bomb", "INC", "")] * inc
    return out


def write_counters(
    scenario: Scenario | None,
    path: Path,
    paper: str = "a4",
    *,
    games: int = GAMES,
    seed: int | None = None,
) -> Path:
    """The counters sheets. With a scenario and ``games`` > 0, the counter mix is measured
    by playing it ``games`` times with the autopilot (see :mod:`countmix`)."""
    pw, ph = paper_size(paper)
    lay = layout("counters_page", pw, ph)
    area_cm = scenario.scale.area_cm if scenario is not None else 10.0
    s = counter_side(lay, area_cm)
    mix = measure(scenario, games, seed) if scenario is not None and games > 0 else None
    counts = counter_counts(scenario, lay, mix)
    squares: list[Item] = []
    for kind, value, _share, _lo, _hi in lay.setting("counters"):
        squares += [(str(kind), value, "")] * counts[(str(kind), value)]
    extra = extra_items(scenario, lay)
    squares += extra["ladder"]
    sheet = lay.box("sheet")
    strip_len = min(area_cm * 10 * (72 / 25.4), sheet.width)
    bomb = lay.length("bomb_square")
    sections: list[tuple[str, float, float, list[Item]]] = [
        ("counter", s, s, squares),
        ("bomb", bomb, bomb, extra["bomb"]),
        ("stand", lay.length("stand_width"), lay.length("stand_height"), extra["stand"]),
        ("hose", lay.length("strip_width"), strip_len, [("hose", "", "")] * counts[("hose", "")]),
    ]
    name = scenario.name if scenario is not None and scenario.name else "BLITZ!"
    c = new_canvas(path, (pw, ph), f"Counters: {name}", "fireground counters")
    basis = (
        f"enough for 9 in 10 of {mix.games} autopilot games ({mix.turns} turns)"
        if mix is not None
        else "an estimate from the map"
    )
    page = 0
    y = -1.0  # no page open yet
    gap = lay.length("section_gap")

    def new_page() -> float:
        nonlocal page
        if page:
            c.showPage()
        page += 1
        draw_text(c, lay.box("title"), "Counters")
        draw_text(
            c,
            lay.box("subtitle"),
            f"{name} · counters {s / 72 * 25.4:.0f} mm for {area_cm:g} cm areas · {basis} · "
            "cut along the grey lines",
        )
        draw_text(c, lay.box("footer"), f"Print at 100% (actual size) · page {page}")
        return sheet.top

    for kind, w, h, items in sections:
        cols = max(1, int(sheet.width // w))
        i = 0
        while i < len(items):
            if page == 0 or y - h < sheet.y:
                y = new_page()
            rows = max(1, int((y - sheet.y) // h))
            batch = items[i : i + cols * rows]
            i += len(batch)
            used_rows = (len(batch) + cols - 1) // cols
            for k, (what, value, caption) in enumerate(batch):
                r, col = divmod(k, cols)
                x0, y0 = sheet.x + col * w, y - (r + 1) * h
                if kind == "counter":
                    _draw_counter(c, lay, what, value, x0, y0, s, caption)
                elif kind == "bomb":
                    _bomb_square(c, x0, y0, w, str(value))
                elif kind == "stand":
                    _stand_label(c, x0, y0, w, h, str(value), caption)
                else:  # upright strips, side by side: a row of them per strip length
                    c.saveState()
                    c.translate(x0 + w, y0)
                    c.rotate(90)
                    _hose_strip(c, lay, 0, 0, h, w, area_cm)
                    c.restoreState()
            _cut_lines(c, lay, sheet.x, y, w, h, cols, used_rows, len(batch))
            y -= used_rows * h + gap
    if page == 0:
        new_page()
    c.showPage()
    c.save()
    return path


def _bomb_square(c: Canvas, x: float, y: float, s: float, kind: str) -> None:
    """A bomb-drop square: dropped from about 1 m over the table, it marks where a bomb
    falls."""
    c.saveState()
    c.setFillColor("#1f1f1f" if kind == "HE" else "#c4161c")
    c.rect(x, y, s, s, stroke=0, fill=1)
    c.setFillColor("#ffffff")
    c.setFont(FONT_BOLD, s * 0.3)
    c.drawCentredString(x + s / 2, y + s * 0.4, kind)
    c.setFont(FONT, s * 0.13)
    c.drawCentredString(x + s / 2, y + s * 0.12, "bomb drop")
    c.restoreState()


def _stand_label(c: Canvas, x: float, y: float, w: float, h: float, uid: str, what: str) -> None:
    """A tag to stand next to a figure or vehicle: its unit id and type."""
    c.saveState()
    c.setFillColor("#ffffff")
    c.rect(x, y, w, h, stroke=0, fill=1)
    c.setFillColor("#1b3a8a")
    size = min(h * 0.5, 0.9 * w / c.stringWidth(uid, FONT_BOLD, 1.0))
    c.setFont(FONT_BOLD, size)
    c.drawCentredString(x + w / 2, y + h * 0.42, uid)
    c.setFillColor("#000000")
    small = max(6.0, min(h * 0.22, 0.92 * w / max(1.0, c.stringWidth(what, FONT, 1.0))))
    c.setFont(FONT, small)
    c.drawCentredString(x + w / 2, y + h * 0.1, _clip(c, what, small, w * 0.95))
    c.restoreState()


def _clip(c: Canvas, text: str, size: float, room: float) -> str:
    while text and c.stringWidth(text, FONT, size) > room:
        text = text[:-1]
    return text


def _hose_strip(
    c: Canvas, lay: Layout, x: float, y: float, length: float, w: float, area_cm: float
) -> None:
    c.saveState()
    c.setFillColor(lay.setting("colours")["hose"])
    c.rect(x, y, length, w, stroke=0, fill=1)
    c.setStrokeColor("#1f4e9c")
    c.setLineWidth(w * 0.28)
    c.line(x + w * 0.4, y + w / 2, x + length - w * 0.4, y + w / 2)
    c.setFillColor("#ffffff")
    c.setFont(FONT_BOLD, w * 0.3)
    c.drawCentredString(
        x + length / 2, y + w * 0.4, f"HOSE · half a length · {area_cm:g} cm, one area"
    )
    c.restoreState()


def _cut_lines(
    c: Canvas,
    lay: Layout,
    x0: float,
    top: float,
    w: float,
    h: float,
    cols: int,
    rows: int,
    count: int,
) -> None:
    """Grey cut lines between butted counters, continued into the margin as marks."""
    mark = lay.length("mark_length")
    c.saveState()
    c.setStrokeColor("#9a9a9a")
    c.setLineWidth(0.3)
    full_cols = min(cols, count)
    xs: Sequence[float] = [x0 + k * w for k in range(full_cols + 1)]
    for r in range(rows + 1):
        y = top - r * h
        n = full_cols if r < rows else count - (rows - 1) * cols
        c.line(x0 - mark, y, x0 + max(n, full_cols if r < rows else n) * w, y)
    for k, x in enumerate(xs):
        n_rows = rows if k <= count - (rows - 1) * cols else rows - 1
        c.line(x, top + mark, x, top - n_rows * h)
    c.restoreState()
