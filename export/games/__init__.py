"""Per-game printed aids, one subpackage per game pack (``export/games/<id>/``).

The shared exporter (plans, map drawing, layouts, flowing text) names no game. It asks the
pack: a pack's optional ``export_tools`` hook (``core.game.hook``) is the dotted name of
its export module, which the exporter imports (the engine itself imports no reportlab).
BLITZ!'s offers ``DOCUMENTS``, ``write_document`` and ``error_lines`` for
:mod:`fireground.export.pack`, which prints the polygon plans itself; a game on a board of
its own (Forest Fire's track) names a module with a ``cli_export`` of its own, which
``fireground export`` calls instead of the shared exporter.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from fireground.engine.core.game import hook
from fireground.engine.core.packs import load_pack


def export_module(game: str) -> ModuleType:
    """The export module of ``game``, named by its pack's ``export_tools`` hook.

    Raises ``UnknownGameError`` for a game not installed, LookupError for a pack without
    one."""
    name = hook(load_pack(game), "export_tools")
    if not name:
        raise LookupError(f"{game}: the game offers no printed aids")
    return importlib.import_module(str(name))
