"""Analyze…: burn chances from the engine's analysis, drawn as a heat map overlay."""

from __future__ import annotations

import itertools
import threading

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QPushButton

from fireground.editor.burn import Cancelled
from fireground.editor.commands import PaintStartCommand
from fireground.editor.games.blitz.burn import burn_chances
from fireground.editor.scene.overlays import heat_color
from fireground.engine.board.model import Scenario
from fireground.engine.play.analysis import outcomes


def redness(c: QColor) -> int:
    return c.red() - c.green()


def test_heat_colours_get_redder_with_the_chance() -> None:
    cs = [heat_color(k / 20) for k in range(21)]
    assert all(redness(a) < redness(b) for a, b in itertools.pairwise(cs))
    assert all(a.hueF() >= b.hueF() for a, b in itertools.pairwise(cs))


def test_burn_chances_are_the_engines(small: Scenario) -> None:
    from dataclasses import replace

    from fireground.engine.board.model import LocationValue, Start

    s = replace(small, start=Start(fires=(LocationValue("H1", 0, 3),)), turns=8)
    seen: list[int] = []
    b = burn_chances(s, 60, seed=7, progress=seen.append)
    assert seen and seen == sorted(seen) and seen[-1] == 60  # one step per chunk
    assert b.chances[("H1", 0)] == 1.0  # alight from the start
    assert set(b.chances) == {("H1", 0), ("H1", 1), ("H2", 0), ("H2", 1), ("R1", 0)}
    # Fewer turns: the same games cut short, so nowhere burns more often.
    short = burn_chances(s, 60, seed=7, turns=2)
    assert short.turns == 2 and b.turns == 8
    assert all(short.chances[loc] <= b.chances[loc] for loc in b.chances)
    assert short.chances[("H2", 1)] < b.chances[("H2", 1)]
    # The games of `fireground analyze --no-response --seed 7 --games 60`: one engine call.
    out = outcomes(s, 60, s.turns, 7, True)
    for k, loc in enumerate(out.locations):
        assert b.chances[loc] == pytest.approx(float(out.burned[:, k].sum()) / 60)


def test_cancel_stops_between_slices(small: Scenario) -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        burn_chances(small, 100, cancel=stop)


def test_analyze_draws_a_heat_map_that_follows_the_chances(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.push(PaintStartCommand(doc, "fire", [("H1", 0)], 2))
    # The first turns only, so the fire has spread to some places in some games.
    with qtbot.waitSignal(win.analysis.finished, timeout=30_000) as got:
        assert win.run_analysis(100, turns=3, ask=False)
    burn = got.args[0]
    assert (burn.games, burn.turns, burn.mode) == (100, 3, "no-response")
    assert win.overlays.boxes["burn"].isChecked()
    items = [it for it in win.scene.overlay_items if getattr(it, "role", "") == "burn"]
    # One tile per location on the level shown (level 0: H1, H2, R1).
    assert sorted(it.location for it in items) == [("H1", 0), ("H2", 0), ("R1", 0)]
    by_loc = {it.location: it for it in items}
    for loc, it in by_loc.items():
        assert it.chance == burn.chances[loc]
        assert it.brush().color() == heat_color(burn.chances[loc])
    # The house on fire burns in every game, its neighbour in some: redder means likelier.
    h1, h2 = by_loc[("H1", 0)], by_loc[("H2", 0)]
    assert burn.chances[("H1", 0)] == 1.0 and 0.0 < burn.chances[("H2", 0)] < 1.0
    assert redness(h1.brush().color()) > redness(h2.brush().color())
    ranked = sorted(items, key=lambda it: it.chance)
    reds = [redness(it.brush().color()) for it in ranked]
    assert reds == sorted(reds)
    # Per level: the upper floor shows its own chances.
    doc.set_level(1)
    up = {it.location for it in win.scene.overlay_items if getattr(it, "role", "") == "burn"}
    assert up == {("H1", 1), ("H2", 1)}
    # Switching the overlay off removes the tiles; the legend is shown.
    assert win.overlays.heat_legend.isVisibleTo(win.overlays)
    win.overlays.boxes["burn"].setChecked(False)
    assert not [it for it in win.scene.overlay_items if getattr(it, "role", "") == "burn"]


def test_analyze_refuses_a_scenario_with_errors(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from fireground.editor.commands import AddAreasCommand
    from fireground.engine.board.model import Area, AreaKind

    win = window
    # A bow-tie polygon is a geometry error.
    bad = Area("X1", AreaKind.OPEN, ((40, 0), (50, 10), (50, 0), (40, 10)))
    win.doc.push(AddAreasCommand(win.doc, [bad]))
    assert not win.run_analysis(50, ask=False)
    assert "error" in win.statusBar().currentMessage()
    assert not win.analysis.running


def test_cancel_from_the_progress_dialog(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.doc.push(PaintStartCommand(win.doc, "fire", [("H1", 0)], 4))
    with qtbot.waitSignal(win.analysis.cancelled, timeout=30_000):
        assert win.run_analysis(5000, ask=False)
        win.analysis_progress.findChild(QPushButton).click()  # its Cancel button
    assert win.analysis_progress is None
    assert "cancelled" in win.statusBar().currentMessage()
    assert not win.overlays.boxes["burn"].isChecked()
