"""Finding game packs: the ``fireground.games`` entry-point group.

:func:`available_packs` lists ids and versions from the installed distributions' metadata
without importing any pack; :func:`load_pack` imports one. BLITZ! is built into fireground
and is listed even when no entry point names it.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

from .game import GamePack

GROUP = "fireground.games"
DEFAULT_GAME = "blitz"


class UnknownGame(ValueError):
    """No installed pack has that id."""


def available_packs() -> dict[str, str]:
    """Installed game packs: id -> version of the distribution that ships it."""
    out: dict[str, str] = {}
    for ep in entry_points(group=GROUP):
        out[ep.name] = ep.dist.version if ep.dist is not None else "?"
    if DEFAULT_GAME not in out:
        from fireground import __version__

        out[DEFAULT_GAME] = __version__
    return dict(sorted(out.items()))


def load_pack(game_id: str) -> GamePack:
    """The pack registered as ``game_id``."""
    for ep in entry_points(group=GROUP):
        if ep.name == game_id:
            pack: GamePack = ep.load()
            return pack
    known = ", ".join(available_packs())
    raise UnknownGame(f"unknown game {game_id!r} (installed: {known})")


def peek_game(text: str) -> str:
    """A scenario's top-level ``game:`` value (``blitz`` when there is none), found
    without reading the rest of the file: a line ``game: ID`` at column 1."""
    for line in text.splitlines():
        if line.startswith("game:"):
            value = line[5:].split("#", 1)[0].strip().strip("'\"")
            return value or DEFAULT_GAME
    return DEFAULT_GAME


def blitz_examples(folder: Path) -> list[Path]:
    """The BLITZ! scenarios (``*.fg.yaml`` with no other ``game:``) of a folder, sorted:
    examples/ holds every game's examples side by side."""
    return sorted(
        p
        for p in folder.glob("*.fg.yaml")
        if peek_game(p.read_text(encoding="utf-8", errors="replace")) == DEFAULT_GAME
    )
