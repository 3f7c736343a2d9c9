"""Unit cards: poker size (63.5 x 88.9 mm), 9-up, butted, crop marks in the margins.

Fronts come from the ruleset's equipment table (house rules applied); with a scenario, one
card per force (with its id and arrival), otherwise the whole catalogue. Each sheet of
fronts is followed by its backs, mirrored so that after a long-edge duplex print each
back lands behind its own front. ``bleed=True`` prints every card 3 mm larger all round
(fewer fit a Letter sheet).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import ForceUnit, Scenario

from ...kit import FONT, FONT_BOLD, draw_text, fill_box, new_canvas, paper_size
from ...layout import MM, Box, Layout, layout


@dataclass(frozen=True)
class Card:
    """What one card says."""

    type: str
    data: Mapping[str, Any]
    unit_id: str = ""
    where: str = ""


@dataclass(frozen=True)
class Sheet:
    """Where cards go on one side of the paper (points, bottom-left of each card's trim)."""

    page: tuple[float, float]
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    gutter: float = 0.0  # white space between neighbouring cards' bleed edges

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def pitch(self) -> tuple[float, float]:
        """From one card to the next, across and down."""
        return (
            self.card_w + 2 * self.bleed + self.gutter,
            self.card_h + 2 * self.bleed + self.gutter,
        )

    @property
    def block(self) -> Box:
        """The cards with their bleed (and the gutters between them)."""
        px, py = self.pitch
        w, h = self.cols * px - self.gutter, self.rows * py - self.gutter
        return Box("block", (self.page[0] - w) / 2, (self.page[1] - h) / 2, w, h)

    def slot(self, i: int) -> tuple[float, float]:
        """Trim-box origin of the i-th card, filled left to right, top to bottom."""
        row, col = divmod(i, self.cols)
        b = self.block
        px, py = self.pitch
        return (b.x + col * px + self.bleed, b.top - row * py - self.card_h - self.bleed)

    def back_slot(self, i: int) -> tuple[float, float]:
        """The same card's back: mirrored across the page's long-edge fold axis."""
        x, y = self.slot(i)
        if self.page[0] <= self.page[1]:  # portrait: flipped about the vertical long edge
            return (self.page[0] - x - self.card_w, y)
        return (x, self.page[1] - y - self.card_h)


def plan_sheet(paper: str, bleed: bool) -> tuple[Sheet, Layout]:
    """Most cards per page (portrait on a tie), at most the layout's ``max_cards``, inside
    the layout's margin; with bleed, a gutter of twice the bleed between cards."""
    pw, ph = paper_size(paper)
    name = "card_sheet_bleed" if bleed else "card_sheet"
    card = layout("card_front")
    best: tuple[Sheet, Layout] | None = None
    for w, h in ((pw, ph), (ph, pw)):
        lay = layout(name, w, h)
        b, m = lay.length("bleed"), lay.length("min_margin")
        g = 2 * b
        cw, ch = card.width + 2 * b + g, card.height + 2 * b + g
        cols, rows = int((w - 2 * m + g) // cw), int((h - 2 * m + g) // ch)
        while cols * rows > int(lay.setting("max_cards", 9)):
            if cols >= rows:
                cols -= 1
            else:
                rows -= 1
        sheet = Sheet((w, h), card.width, card.height, b, cols, rows, g)
        if best is None or sheet.per_page > best[0].per_page:
            best = (sheet, lay)
    assert best is not None
    if best[0].per_page == 0:
        raise ValueError(f"a card does not fit on {paper} paper")
    return best


# -- content ------------------------------------------------------------------------------
def unit_catalogue(scenario: Scenario | None) -> Mapping[str, Mapping[str, Any]]:
    """The equipment table of the scenario's ruleset, house rules applied."""
    from fireground.engine.core import ruleset as rs

    name = scenario.ruleset if scenario is not None else "blitz"
    load = getattr(rs, "load_ruleset", None)
    if load is not None:
        rules = load(name, dict(scenario.house_rules) if scenario is not None else {})
        units = getattr(rules, "units", None)
        if units is not None:
            return dict(units)
    return dict(rs.ruleset_data(name).get("units", {}))


def cards_for(scenario: Scenario | None, catalogue: bool = False) -> list[Card]:
    units = unit_catalogue(scenario)
    if scenario is None or catalogue or not scenario.forces:
        return [Card(t, d) for t, d in units.items()]
    return [
        Card(u.type, units.get(u.type, {"name": u.type}), u.id, _where(u)) for u in scenario.forces
    ]


def _where(u: ForceUnit) -> str:
    if u.area is not None:
        lvl = f", level {u.level}" if u.level else ""
        start = f"starts in {u.area}{lvl}"
        return start if u.arrives <= 1 else f"arrives turn {u.arrives} in {u.area}{lvl}"
    return f"arrives turn {u.arrives}" + (f" {u.entry}" if u.entry else "")


def _ladders(value: Any) -> str:
    if not value:
        return "—"
    if not isinstance(value, list):
        return str(value)
    counts = Counter(
        (int(ld.get("rating", 1)), bool(ld.get("hook")), str(ld.get("name", "ladder")))
        for ld in value
        if isinstance(ld, Mapping)
    )
    return ", ".join(
        f"{n} × {name} (level {rating}{', hook' if hook else ''})"
        for (rating, hook, name), n in sorted(counts.items())
    )


def stat_text(key: str, data: Mapping[str, Any], rules: Any = None) -> str:
    v = data.get(key)
    if key == "ladders":
        return _ladders(v)
    if key == "moves":
        moves = {
            "road": "by road (vehicle)",
            "foot": "on foot",
            "towed": "towed",
            "carried": "carried",
        }
        text = moves.get(str(v), str(v)) if v else "—"
        if rules is not None:
            lay = layout("card_front")
            if v == "foot":
                text = _fill(str(lay.setting("foot")), rules)
            elif v == "road" and data.get("fire_teams"):
                text += _fill(str(lay.setting("crews_on_foot")), rules)
        return text
    if key == "water" and data.get("dam_points"):
        return f"dam of {data['dam_points']}"
    if v in (None, 0, "", []):
        return "—"
    return str(v)


def _fill(text: str, rules: Any) -> str:
    from .reference import fill

    return fill(text, rules)


def _turns(n: Any) -> str:
    return f"{n} turn" if str(n) == "1" else f"{n} turns"


def special_text(data: Mapping[str, Any], unit_type: str = "", rules: Any = None) -> str:
    lines = [str(s) for s in data.get("special") or []]
    extra = {
        "deploy_turns": lambda n: f"{_turns(n)} to deploy or unload",
        "lays_areas": lambda n: f"lays {n} areas of hose a turn",
        "rations": lambda n: f"{n} stand-turns of rations",
        "carries": lambda n: f"carries {n} casualties",
    }
    for key, text in extra.items():
        if data.get(key):
            lines.append(text(data[key]))
    notes: Mapping[str, str] = layout("card_front").setting("notes") or {}
    if rules is not None and unit_type in notes:
        lines.append(_fill(str(notes[unit_type]), rules))
    return "\n".join(f"• {s}" for s in lines) or "—"


# -- drawing ------------------------------------------------------------------------------
def _colour(lay: Layout, role: str) -> str:
    colours: Mapping[str, str] = lay.setting("role_colours") or {}
    return colours.get(role, colours.get("default", "#7f1d1d"))


def _bled(box: Box, card: Layout, bleed: float) -> Box:
    """Stretch a box that touches the trim edge out to the bleed edge."""
    if not box.get("bleed") or not bleed:
        return box
    x0 = box.x - bleed if box.x <= 0.01 else box.x
    y0 = box.y - bleed if box.y <= 0.01 else box.y
    x1 = box.right + bleed if box.right >= card.width - 0.01 else box.right
    y1 = box.top + bleed if box.top >= card.height - 0.01 else box.top
    return Box(box.name, x0, y0, x1 - x0, y1 - y0, box.style)


def draw_front(c: Canvas, card: Card, x: float, y: float, bleed: float, rules: Any = None) -> None:
    lay = layout("card_front")
    role = str(card.data.get("role", "default"))
    colour = _colour(lay, role)
    c.saveState()
    c.translate(x, y)
    fill_box(
        c,
        Box("bg", -bleed, -bleed, lay.width + 2 * bleed, lay.height + 2 * bleed),
        fill=lay.setting("background"),
    )
    fill_box(c, _bled(lay.box("band"), lay, bleed), fill=colour)
    fill_box(c, _bled(lay.box("footer"), lay, bleed), fill=colour)
    draw_text(c, lay.box("name"), str(card.data.get("name", card.type)))
    draw_text(c, lay.box("role"), role.replace("_", " "))
    _stats(c, lay, card.data, rules)
    _ticks(c, lay, card.data)
    draw_text(c, lay.box("special_title"), "Special")
    draw_text(c, lay.box("special"), special_text(card.data, card.type, rules))
    draw_text(c, lay.box("id"), card.unit_id or "")
    draw_text(c, lay.box("arrives"), card.where or "catalogue card")
    c.restoreState()


def tick_rows(data: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The record rows a card carries: (label, boxes). Water points (tank or dam), hose
    lengths, and fatigue: a Tired and an Exhausted box per stand (one row, ``T`` then
    ``E``)."""
    rows = []
    water = int(data.get("dam_points") or data.get("water") or 0)
    if water:
        rows.append(("Water", water))
    hose = int(data.get("hose_lengths") or 0)
    if hose:
        rows.append(("Hose", hose))
    stands = int(data.get("fire_teams") or 0) or (1 if data.get("moves") == "foot" else 0)
    if stands:
        rows.append(("Fatigue", stands))
    return rows


def _ticks(c: Canvas, lay: Layout, data: Mapping[str, Any]) -> None:
    """Tick boxes for what the table records: water used, hose laid, fatigue."""
    box = lay.box("ticks")
    side, pitch = float(box.get("box")) * MM, float(box.get("pitch")) * MM
    size = float(box.get("font_size", 6))
    label_w = c.stringWidth("Fatigue", FONT_BOLD, size) + 2 * (pitch - side)
    per_row = max(1, int((box.width - label_w) // pitch))
    lines: list[tuple[str, list[str]]] = []
    for label, n in tick_rows(data):
        if label == "Fatigue":
            lines.append((label, ["T"] + [""] * n + [" ", "E"] + [""] * n))
            continue
        while n > 0:
            lines.append((label, [""] * min(n, per_row)))
            label, n = "", n - per_row
    y = box.top
    c.saveState()
    c.setLineWidth(0.4)
    c.setStrokeColor("#6b5d45")
    c.setFillColor("#000000")
    for label, cells in lines:
        if y - pitch < box.y - 0.01:
            break  # no room: the card never draws outside its box
        y -= pitch
        base = y + (pitch - size * 0.72) / 2
        c.setFont(FONT_BOLD, size)
        c.drawString(box.x, base, label)
        for k, cell in enumerate(cells[:per_row]):
            x = box.x + label_w + k * pitch
            if cell:
                c.drawCentredString(x + side / 2, base, cell.strip())
            else:
                c.rect(x, y + (pitch - side) / 2, side, side, stroke=1, fill=0)
    c.restoreState()


def _stats(c: Canvas, lay: Layout, data: Mapping[str, Any], rules: Any = None) -> None:
    """The equipment rows; a value too long for one line gets a row twice as tall."""
    box = lay.box("stats")
    rows: Sequence[Sequence[str]] = lay.setting("stats") or []
    label_w = box.width * 0.36
    room = box.width - label_w - 2 * float(box.get("padding", 0.0))
    size = float(box.get("font_size", 7))
    values = [stat_text(str(key), data, rules) for key, _ in rows]
    tall = [c.stringWidth(v, FONT, size) > room for v in values]
    unit = box.height / max(1, len(rows) + sum(tall))
    c.saveState()
    c.setStrokeColor("#c9b99a")
    c.setLineWidth(0.3)
    top = box.top
    for i, ((_key, label), value) in enumerate(zip(rows, values, strict=True)):
        h = unit * (2 if tall[i] else 1)
        if i:
            c.line(box.x, top, box.right, top)
        lbox = Box(
            "label",
            box.x,
            top - h,
            label_w,
            h,
            {**box.style, "font": "bold", "valign": "middle", "max_lines": 1},
        )
        vbox = Box(
            "value",
            box.x + label_w,
            top - h,
            box.width - label_w,
            h,
            {**box.style, "valign": "middle", "max_lines": 2, "leading": 1.1},
        )
        draw_text(c, lbox, str(label))
        draw_text(c, vbox, value)
        top -= h
    c.restoreState()


def draw_back(c: Canvas, card: Card, x: float, y: float, bleed: float) -> None:
    lay = layout("card_back")
    c.saveState()
    c.translate(x, y)
    fill_box(
        c,
        Box("bg", -bleed, -bleed, lay.width + 2 * bleed, lay.height + 2 * bleed),
        fill=lay.setting("background"),
    )
    fill_box(c, lay.box("frame"), stroke=lay.setting("border"), width=1.2, radius=6)
    draw_text(c, lay.box("title"), "BLITZ!")
    draw_text(c, lay.box("subtitle"), "London Fire Service 1940")
    draw_text(
        c,
        lay.box("kind"),
        f"{card.unit_id} · " * bool(card.unit_id) + str(card.data.get("name", card.type)),
    )
    c.restoreState()


def write_cards(
    scenario: Scenario | None,
    path: Path,
    paper: str = "a4",
    bleed: bool = False,
    catalogue: bool = False,
) -> Path:
    cards = cards_for(scenario, catalogue)
    sheet, lay = plan_sheet(paper, bleed)
    title = (
        f"Unit cards: {scenario.name}" if scenario is not None and scenario.name else "Unit cards"
    )
    c = new_canvas(path, sheet.page, title, "fireground unit cards")
    from .reference import Rules

    rules = Rules(scenario)
    n = sheet.per_page
    for start in range(0, max(1, len(cards)), n):
        batch = cards[start : start + n]
        for side in ("front", "back"):
            c.setPageSize(sheet.page)
            for i, card in enumerate(batch):
                if side == "front":
                    draw_front(c, card, *sheet.slot(i), sheet.bleed, rules)
                else:
                    draw_back(c, card, *sheet.back_slot(i), sheet.bleed)
            note = (
                "Fronts: cut on the marks."
                if side == "front"
                else "Backs: print double-sided, flip on the long edge."
            )
            top = _note(
                c,
                sheet,
                lay,
                f"{note} Print at 100% (actual size). "
                f"Cards {start + 1}-{start + len(batch)} of {len(cards)}.",
            )
            _marks(c, sheet, lay, len(batch), side, top)
            c.showPage()
    c.save()
    return path


def _note(c: Canvas, sheet: Sheet, lay: Layout, text: str) -> float:
    """The print note, ``edge`` clear of the paper's edge: under the cards when there is
    room, else in the wider side margin. Returns the height it takes at the bottom (0 when
    it went to the side)."""
    b = sheet.block
    edge, h = lay.length("edge"), lay.length("note_height")
    style = lay.box("note").style
    if b.y - edge >= h + lay.length("mark_gap"):
        draw_text(c, Box("note", edge, edge, sheet.page[0] - 2 * edge, h, style), text)
        return edge + h
    side = b.x - edge - lay.length("mark_gap") - lay.length("mark_length") - 1
    box = Box("note", edge, b.y, side, b.height, {**style, "max_lines": 12, "align": "left"})
    draw_text(c, box, text)
    return 0.0


def _marks(c: Canvas, sheet: Sheet, lay: Layout, count: int, side: str, room_below: float) -> None:
    """Crop marks on every trim line: in the margins where they stay ``edge`` clear of the
    paper's edge (and above the note, ``room_below``), and in the gutters between cards."""
    slots = [sheet.slot(i) if side == "front" else sheet.back_slot(i) for i in range(count)]
    xs = sorted({round(x, 3) for x, _ in slots} | {round(x + sheet.card_w, 3) for x, _ in slots})
    ys = sorted({round(y, 3) for _, y in slots} | {round(y + sheet.card_h, 3) for _, y in slots})
    bl = sheet.bleed
    # the cards in use with their bleed (a last sheet may be part full)
    b = Box(
        "used",
        xs[0] - bl,
        ys[0] - bl,
        xs[-1] - xs[0] + 2 * bl,
        ys[-1] - ys[0] + 2 * bl,
    )
    pw, ph = sheet.page
    edge = lay.length("edge")
    gap, length = lay.length("mark_gap"), lay.length("mark_length")
    shortest = lay.length("mark_min")
    segs: list[tuple[float, float, float, float]] = []
    room = {
        "top": ph - edge - b.top - gap,
        "bottom": b.y - gap - max(edge, room_below),
        "left": b.x - gap - edge,
        "right": pw - edge - b.right - gap,
    }
    for x in xs:
        if room["top"] >= shortest:
            segs.append((x, b.top + gap, x, b.top + gap + min(length, room["top"])))
        if room["bottom"] >= shortest:
            segs.append((x, b.y - gap, x, b.y - gap - min(length, room["bottom"])))
    for y in ys:
        if room["left"] >= shortest:
            segs.append((b.x - gap, y, b.x - gap - min(length, room["left"]), y))
        if room["right"] >= shortest:
            segs.append((b.right + gap, y, b.right + gap + min(length, room["right"]), y))
    if sheet.gutter > 0:
        inset = min(gap, sheet.gutter / 4)
        lows = sorted({round(y, 3) for _, y in slots})
        lefts = sorted({round(x, 3) for x, _ in slots})
        for below, above in itertools.pairwise(lows):  # the gutter between two rows
            lo, hi = below + sheet.card_h + bl, above - bl
            segs += [(x, lo + inset, x, hi - inset) for x in xs]
        for left, right in itertools.pairwise(lefts):  # the gutter between two columns
            lo, hi = left + sheet.card_w + bl, right - bl
            segs += [(lo + inset, y, hi - inset, y) for y in ys]
    c.saveState()
    c.setLineWidth(0.25)
    c.setStrokeColor("#000000")
    for x0, y0, x1, y1 in segs:
        c.line(x0, y0, x1, y1)
    c.restoreState()
