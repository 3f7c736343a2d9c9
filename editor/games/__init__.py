"""Per-game editor parts, one subpackage per game pack (``editor/games/<id>/``).

The shared editor (canvas, tools, selection, undo, files, the Properties, Overlays and
Background panels) names no game. It asks the pack: a pack's optional ``editor_tools``
hook (``core.game.hook``) is the dotted name of its editor module, which the editor imports
(the engine itself imports no Qt). That module offers what it has:

* ``make_panels(window) -> GamePanels``: the game's panels in the polygon editor's window
  (BLITZ!: Scenario, Forces, Issues, Test turn, Play), its checks, its Analyze… and its
  screenshot turns, see :class:`GamePanels`;
* ``NEW_BOARD`` and ``new_board(parent)``: a File menu action opening a new board of the
  game in a window of its own (Forest Fire);
* ``cli_edit(args)``: ``fireground edit FILE`` for a file of the game, when the game has
  its own window.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from fireground.engine.core.game import hook
from fireground.engine.core.packs import available_packs, load_pack

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget, QWidget

    from fireground.editor.burn import BurnMap
    from fireground.engine.board.model import Scenario


def _nothing() -> None:
    return None


def _no_errors(_s: Scenario) -> list[str]:
    return []


def _no_turns(_turns: int) -> None:
    return None


@dataclass
class GamePanels:
    """A game's panels for the editor window, and what the window calls on them.

    ``right`` are tabbed with Properties (before Background), in order; ``bottom`` sit
    under the map, tabbed, the first in front. The window makes a dock of each (titled as
    given), hands the docks by title to ``docked``, and calls ``refresh`` when a document
    is shown and ``shutdown`` before it goes. ``edit_actions`` (menu text, action) end the
    Edit menu's edits.

    ``check_errors(scenario)`` lists the game's check errors, which stop an export or an
    analysis and are counted on saving. ``burn_chances`` is the game's Analyze… (a
    module-level function, played in the editor's worker process by
    :func:`fireground.editor.burn.worker_main`, with the signature of BLITZ!'s
    :func:`fireground.editor.games.blitz.burn.burn_chances`); without one the Analyze menu
    is off. ``screenshot(turns)`` readies the game's panels before ``fireground edit
    --screenshot`` grabs the window, playing ``turns`` turns where the game has turns to
    show (0: the start as drawn)."""

    right: list[tuple[str, QWidget]] = field(default_factory=list)
    bottom: list[tuple[str, QWidget]] = field(default_factory=list)
    docked: Callable[[dict[str, QDockWidget]], None] = lambda _docks: None
    edit_actions: list[tuple[str, Callable[[], None]]] = field(default_factory=list)
    refresh: Callable[[], None] = _nothing
    shutdown: Callable[[], None] = _nothing
    check_errors: Callable[[Scenario], list[str]] = _no_errors
    burn_chances: Callable[..., BurnMap] | None = None
    screenshot: Callable[[int], None] = _no_turns


def editor_module(game: str) -> ModuleType:
    """The editor module of ``game``, named by its pack's ``editor_tools`` hook.

    Raises ``UnknownGameError`` for a game not installed, LookupError for a pack without
    editor parts."""
    name = hook(load_pack(game), "editor_tools")
    if not name:
        raise LookupError(f"{game}: the game offers no editor parts")
    return importlib.import_module(str(name))


@functools.cache
def new_board_actions() -> tuple[tuple[str, Callable[[Any], None]], ...]:
    """(menu text, opener) for every installed game whose editor opens new boards in a
    window of its own, in the order of the games' ids."""
    out: list[tuple[str, Callable[[Any], None]]] = []
    for game in sorted(available_packs()):
        try:
            mod = editor_module(game)
        except (LookupError, ImportError, ValueError):
            continue  # a pack without editor parts, or broken: the editor still opens
        text, opener = getattr(mod, "NEW_BOARD", None), getattr(mod, "new_board", None)
        if text and callable(opener):
            out.append((str(text), opener))
    return tuple(out)
