"""Drop bombs on the start (Edit menu): BLITZ!'s scenario seeding (rules §5), played by
the engine's own bombing rule on the map's start, as one undoable edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QInputDialog

from fireground.engine.board.model import Scenario

from ...commands.base import ScenarioCommand
from ...ops_start import start_from_state

if TYPE_CHECKING:
    from ...document import Document
    from ...main_window import MainWindow


def drop_bombs(s: Scenario, sticks: int, seed: int) -> Scenario:
    """The start after ``sticks`` random sticks of bombs (§5), rolled with ``seed``: the
    engine drops them on a game at turn 0 and its state becomes the start."""
    from fireground.engine.games.blitz.rules.bombing import drop_sticks
    from fireground.engine.play.simulate import new_game

    game = new_game(s, seed)
    drop_sticks(game.ctx, game.state, sticks)
    return start_from_state(s, game.state.to_log())


class DropBombsCommand(ScenarioCommand):
    def __init__(self, doc: Document, sticks: int, seed: int) -> None:
        super().__init__(
            doc, drop_bombs(doc.scenario, sticks, seed), f"Drop {sticks} stick(s) of bombs"
        )


def drop_bombs_dialog(window: MainWindow) -> None:
    """Ask for the sticks and the seed, then drop them (one undo step)."""
    n, ok = QInputDialog.getInt(window, "Drop bombs", "Sticks of bombs:", 2, 1, 50)
    if not ok:
        return
    seed, ok = QInputDialog.getInt(window, "Drop bombs", "Seed:", 1940, 0, 2**31 - 1)
    if ok:
        window.doc.push(DropBombsCommand(window.doc, n, seed))
