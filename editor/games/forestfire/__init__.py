"""The Forest Fire board editor: a track of squares, token brush, engines, test turn.

Its pack's ``editor_tools`` names this module (see :mod:`fireground.editor.games`): Forest
Fire's board is a track, not the polygon map, so it has a window of its own
(:mod:`.window`), opened from the polygon editor's File menu or by ``fireground edit``."""

from __future__ import annotations

import argparse
from typing import Any

#: the polygon editor's File menu action opening a new Forest Fire board
NEW_BOARD = "New &Forest Fire board…"


def new_board(parent: Any = None) -> Any:
    """File > New Forest Fire board: ask for the track, open a window on it."""
    from .window import open_new_board

    return open_new_board(parent)


def cli_edit(args: argparse.Namespace) -> int:
    """``fireground edit FILE`` for a Forest Fire scenario."""
    from .window import cli_edit as run

    return run(args)
