"""The turn sheet: one page for the table after a turn played with ``fireground play turn
--sheet``: the table delta (each place with a box to tick) and every roll behind it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.platypus.flowables import Flowable

from fireground.engine.games.blitz.delta import Change, by_place
from fireground.engine.games.blitz.events import OrderEvent
from fireground.engine.play.table import TableGame, roll_text

from ... import flow
from .briefing import report_page

#: Body font sizes tried in turn until the sheet fits one page.
SIZES = (8.0, 7.0, 6.0, 5.2, 4.6)
COLUMNS = 3
GAP = 8.0


def _story(
    tg: TableGame, changes: Sequence[Change], base: float, brief_rolls: bool
) -> list[Flowable]:
    st = flow.styles(base)
    rec = tg.turns[-1]
    out: list[Flowable] = [flow.para("On the table", st["h1"])]
    groups = by_place(changes)
    if not groups:
        out.append(flow.para("Nothing changes on the table this turn.", st["body"]))
    for where, cs in groups:
        text = f"☐ <b>{escape(where)}</b>: " + "; ".join(escape(c.what) for c in cs)
        out.append(flow.para(text, st["cell"], markup=True))
    refused = [e for e in rec.log.events if isinstance(e, OrderEvent) and e.refused is not None] if (
        rec.log) else []  # fmt: skip
    if rec.orders:
        out.append(flow.para("Orders", st["h2"]))
        for o in rec.orders:
            bad = next((e.refused for e in refused if e.unit == o["unit"]), None)
            what = ", ".join(f"{k} {v}" for k, v in o.items() if k not in ("unit", "kind", "turn"))
            line = f"{o['unit']} {o['kind']} {what}".strip()
            out.append(flow.para(line + (f" — refused ({bad})" if bad else ""), st["small"]))
    manual = sum(1 for r in rec.rolls if r.get("manual"))
    out.append(flow.para(f"Rolls ({len(rec.rolls)}, {manual} with table dice)", st["h2"]))
    hidden = 0
    for i, ev in enumerate(rec.rolls):
        if brief_rolls and not ev.get("success") and not ev.get("manual"):
            hidden += 1
            continue
        out.append(flow.para(f"{i + 1}. {roll_text(ev, i)}", st["small"]))
    if hidden:
        out.append(flow.para(f"{hidden} failed rolls are not listed (the game file keeps "
                             "them all).", st["small"]))  # fmt: skip
    score = tg.score()
    out.append(flow.para("Score so far", st["h2"]))
    out.append(flow.para(
        f"{score['destroyed']} destroyed, {score['burning']} burning, {score['dead']} dead, "
        f"{score['injured']} injured, {score['rescued']} rescued, "
        f"{score['units_lost']} units lost", st["small"],
    ))  # fmt: skip
    return out


def write_turn_sheet(
    tg: TableGame, changes: Sequence[Change], path: str | Path, paper: str = "a4"
) -> Path:
    """Write the sheet of the game's last turn on one page (the type shrinks to fit; on a
    very busy turn the failed rolls are counted rather than listed)."""
    lay, _, _ = report_page(paper)
    rec = tg.turns[-1]
    pages: list[int] = []
    attempts: list[tuple[float, bool]] = [(s, False) for s in SIZES] + [(SIZES[-1], True)]
    out = Path(path)
    for base, brief in attempts:
        pages.clear()
        flow.build(
            out,
            lay,
            _story(tg, changes, base, brief),
            title=f"Turn {rec.turn}: {tg.scenario.name or 'untitled'}",
            subtitle=f"Turn sheet · seed {tg.seed} · {len(changes)} changes on the table",
            footer=f"fireground play · turn {rec.turn} of {tg.scenario.turns}",
            columns=COLUMNS,
            gap=GAP,
            on_page=lambda c, n: pages.append(n),
        )
        if len(pages) <= 1:
            break
    return out
