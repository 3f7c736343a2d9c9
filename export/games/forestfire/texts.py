"""Forest Fire's text documents: the poker-card reference, the briefing and the turn report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fireground.engine.games.forestfire.report import board_line, describe_turn
from fireground.engine.games.forestfire.rules import Rules
from fireground.engine.games.forestfire.scenario import Setup

from ...kit import crop_marks, draw_text, fit_lines, font_name, new_canvas, paper_size
from ...layout import Box, layout


def card_texts(r: Rules) -> list[tuple[str, str]]:
    """The reference cards' titles and bodies, numbers from the ruleset in force."""
    need = ", ".join(
        f"{d}: {'automatic' if n <= 1 else f'{n}+'}" for d, n in enumerate(r.spray_need)
        if d <= r.spray_range
    )  # fmt: skip
    extra = (f" Then, with {r.rightmost_at_total}+ tokens on the board, the rightmost "
             "burning square burns out too.") if r.rightmost_at_total else ""  # fmt: skip
    seq = (
        "FIRE TURN\n"
        f"A. Engines on a square with fire are destroyed (+{r.vp_engine} VP each).\n"
        "B. One action:\n"
        f"- Wind: 1 token on each of the {r.wind_squares} squares townward of the leftmost fire (not on burnt ones).\n"
        "- Grow: 1 token on a burning square.\n"
        "- Intensify: a burning square with n tokens burns out; place 2n tokens on unburnt squares within n (town included).\n"
        f"C. Squares with {r.burn_out_at}+ tokens burn out.{extra}\n\n"
        "CHIEF TURN (E1 then E2)\n"
        f"1. In the town: load water up to {r.capacity}.\n"
        f"2. Move up to {r.move} - water held, or spray one water at a time."
    )
    table = (
        f"SPRAY (one water per try, range {r.spray_range})\n"
        f"Distance: {need}.\nA hit removes the token; a miss may be retried on any token.\n\n"
        f"VICTORY POINTS\nForest square burns out: {r.vp_square}\nTown burns out: {r.vp_town}\n"
        f"Engine destroyed: {r.vp_engine}\n\n"
        f"END\nFire reaches {r.vp_win} VP (at once), no fire left, or {r.rounds_max} rounds.\n"
        f"{r.vp_win}+ Fire total victory; {r.vp_marginal}-{r.vp_win - 1} marginal; "
        f"else the Chief wins."
    )
    return [("Turn sequence", seq), ("Spray table and VP", table)]


def write_cards(s: Setup, path: Path, paper: str = "a4") -> int:
    r = s.rules()
    w, h = paper_size(paper)
    page = layout("ff_cards_page", w, h)
    card = layout("ff_card")
    c = new_canvas(path, (w, h), f"{s.name}: reference cards", "Forest Fire reference")
    cards = card_texts(r)
    m, gap = page.length("margin"), page.length("gap")
    xs = [m + i * (card.width + gap) for i in range(len(cards))]
    y = h - m - card.height
    draw_text(c, page.box("title"), f"{s.name}: reference cards (poker size, cut out)")
    for x, (title, body) in zip(xs, cards, strict=True):
        c.saveState()
        c.translate(x, y)
        c.setLineWidth(0.5)
        c.roundRect(0, 0, card.width, card.height, 8, stroke=1, fill=0)
        draw_text(c, card.box("title"), title)
        draw_text(c, card.box("body"), body)
        c.restoreState()
    edges_x = sorted({v for x in xs for v in (x, x + card.width)})
    crop_marks(c, edges_x, [y, y + card.height],
               Box("sheet", xs[0], y, xs[-1] + card.width - xs[0], card.height), 3, page.length("mark"))  # fmt: skip
    c.showPage()
    c.save()
    return len(cards)


def _text_pages(path: Path, paper: str, title: str, subtitle: str, lines: list[str]) -> int:
    """Flow ``lines`` over A4 pages of the ``ff_text_page`` layout; returns the page count."""
    w, h = paper_size(paper)
    lay = layout("ff_text_page", w, h)
    body = lay.box("body")
    c = new_canvas(path, (w, h), title, subtitle)
    size = float(body.get("font_size", 9.5))
    lead = size * float(body.get("leading", 1.3))
    font = font_name(None)
    wrapped: list[str] = []
    for ln in lines:
        if not ln:
            wrapped.append("")
            continue
        out, _ = fit_lines(ln, font, size, body.width, 1e6, min_size=size, leading=1.3)
        wrapped += out
    per_page = max(1, int(body.height // lead))
    pages = max(1, -(-len(wrapped) // per_page))
    for p in range(pages):
        draw_text(c, lay.box("title"), title)
        draw_text(c, lay.box("subtitle"), f"{subtitle} - page {p + 1} of {pages}")
        c.setFont(font, size)
        yy = body.top - size
        for ln in wrapped[p * per_page : (p + 1) * per_page]:
            c.drawString(body.x, yy, ln)
            yy -= lead
        c.showPage()
    c.save()
    return pages


def write_briefing(s: Setup, path: Path, paper: str = "a4") -> int:
    r = s.rules()
    toks = ", ".join(f"{v} on square {k}" for k, v in sorted(s.tokens.items()))
    engines = ", ".join(f"{e.id} on square {e.square} with {e.water} water" for e in s.engines)
    lines = [
        s.description or "Fire against the Fire Chief on a path of squares.",
        "",
        f"THE BOARD: {s.squares} squares of {s.square_cm:g} cm in a row. Square 1 is the town, "
        "the rest is forest.",
        f"AT THE START: fire tokens {toks}. Engines: {engines}.",
        "",
        "FIRE PLAYER: you move first. Drive the fire down the path into the town (10 VP), "
        f"trap engines on burning squares ({r.vp_engine} VP each) and burn out the forest "
        f"({r.vp_square} VP a square). A token left on the town at your turn lets you intensify it.",
        "",
        "FIRE CHIEF: load water in the town; an engine moves 5 squares less one per water "
        "held. Spray from up to 2 squares away; never end your turn on a burning square.",
        "",
        f"THE GAME ENDS at {r.vp_win} VP, when no fire is left, or after {r.rounds_max} rounds. "
        f"{r.vp_win}+ VP: Fire total victory. {r.vp_marginal}-{r.vp_win - 1}: Fire marginal "
        "victory. Less: the Chief wins.",
    ]
    if s.house_rules:
        lines += ["", "HOUSE RULES: " + "; ".join(f"{k} = {v}" for k, v in s.house_rules.items())]
    lines += ["", "SET-UP: lay out the board strip; place the fire tokens and the engines as "
              "above; put the VP marker on 0 of the track; the Fire player takes the first turn."]  # fmt: skip
    return _text_pages(path, paper, f"{s.name}: briefing", "Forest Fire", lines)


def write_turns(s: Setup, path: Path, log: dict[str, Any], paper: str = "a4") -> int:
    lines: list[str] = []
    pol = log["policies"]
    for entry in log["turns"]:
        head = "Start" if entry["side"] == "start" else f"Round {entry['round']}, {entry['side']}"
        what = "; ".join(describe_turn(entry))
        lines.append(f"{head}: {what}" if what else head)
        lines.append(f"    {board_line(entry['state'], s.squares)}    VP {entry['state']['vp']}")
    res = log["result"]
    lines += ["", f"Result: {res['band']} with {res['vp']} VP after {res['rounds']} round(s) "
              f"({res['reason']})."]  # fmt: skip
    sub = f"fire={pol['fire']}, chief={pol['chief']}, seed {log['seed']}; T = town, # = burnt, [E1:3] = engine and water"
    return _text_pages(path, paper, f"{s.name}: turn report", sub, lines)
