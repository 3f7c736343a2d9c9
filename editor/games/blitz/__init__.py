"""BLITZ!'s editor parts: its panels in the polygon editor's window (Scenario, Forces,
Issues, Test turn, Play), its Edit menu action, Drop bombs on the start (:mod:`.bombs`),
its checks and burn chances for Analyze… (:mod:`.burn`) and the test turns played before
``fireground edit --screenshot`` grabs the window.
The BLITZ! pack's ``editor_tools`` names this module (see :mod:`fireground.editor.games`).

The shapes, placement and start tools, the Properties, Overlays and Background panels are
the shared editor's: they edit the polygon map (``engine/board``) every polygon game draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fireground.editor.games import GamePanels

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget

    from fireground.editor.main_window import MainWindow


def make_panels(window: MainWindow) -> GamePanels:
    """BLITZ!'s panels for ``window``, kept on it by name (``window.forces``,
    ``window.issues``, ``window.test_turn``, ``window.play``; their docks
    ``window.scenario_dock``, ``forces_dock``, ``issues_dock``, ``turn_dock``,
    ``play_dock``)."""
    from .bombs import drop_bombs_dialog
    from .burn import burn_chances, check_errors
    from .panels.forces import ForcesPanel
    from .panels.issues import IssuesPanel
    from .panels.scenario_panel import ScenarioPanel
    from .panels.test_turn import TestTurnPanel
    from .play_mode import PlayPanel

    doc = window.doc
    window.forces = ForcesPanel(doc)
    window.scenario_panel = ScenarioPanel(doc)
    window.issues = IssuesPanel(doc)
    window.issues.markers = window.scene
    window.test_turn = TestTurnPanel(doc, window.scene)
    window.play = PlayPanel(window)

    def docked(docks: dict[str, QDockWidget]) -> None:
        window.scenario_dock = docks["Scenario"]
        window.forces_dock = docks["Forces"]
        window.issues_dock = docks["Issues"]
        window.turn_dock = docks["Test turn"]
        window.play_dock = docks["Play"]
        issues = window.issues
        issues.locate.connect(window.locate)
        issues.fit_map.connect(window.view.fit_to_map)
        issues.show_panel.connect(show_panel)
        issues.show_objective.connect(window.scenario_panel.show_objective)

    def show_panel(which: str) -> None:
        dock = window.forces_dock if which == "forces" else window.scenario_dock
        dock.show()
        dock.raise_()

    def screenshot(turns: int) -> None:
        """Check the start, and play ``turns`` umpire turns in the Test turn panel (its
        dock in front) so the picture shows the fire spreading and the rolls in words."""
        window.issues.refresh_now()
        if turns > 0:
            window.test_turn.run(turns)
            window.turn_dock.raise_()

    return GamePanels(
        right=[("Scenario", window.scenario_panel), ("Forces", window.forces)],
        bottom=[("Issues", window.issues), ("Test turn", window.test_turn), ("Play", window.play)],
        docked=docked,
        edit_actions=[("Drop &bombs on the start…", lambda: drop_bombs_dialog(window))],
        refresh=window.issues.refresh,
        shutdown=window.issues.shutdown,
        check_errors=check_errors,
        burn_chances=burn_chances,
        screenshot=screenshot,
    )
