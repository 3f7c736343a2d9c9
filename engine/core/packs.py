"""Finding game packs: the ``fireground.games`` entry-point group.

A pack is a distribution's entry point in that group, named by the game's id and pointing
at the pack object (``blitz = "fireground.engine.games.blitz.pack:PACK"``), so a third party
ships a game as its own distribution. Listing the packs imports none of them; loading one
imports that one only.
"""

from __future__ import annotations

import difflib
import functools
from importlib.metadata import EntryPoint, entry_points

from .game import GamePack

#: the entry-point group games register in
GROUP = "fireground.games"

#: the game of a scenario file without a ``game:`` key (every file of format v1)
DEFAULT_GAME = "blitz"


class UnknownGameError(ValueError):
    """A game id no installed pack provides."""


class BadPackError(ValueError):
    """An entry point in ``fireground.games`` that does not give a usable game pack."""


def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        found.setdefault(ep.name, ep)  # the first of two installs of the same name wins
    return found


def available_packs() -> dict[str, str]:
    """Installed games as id -> version (of the distribution shipping them), without
    importing any of them."""
    out: dict[str, str] = {}
    for name, ep in _entry_points().items():
        dist = ep.dist
        out[name] = dist.version if dist is not None else "unknown"
    return out


def load_pack(game_id: str) -> GamePack:
    """The pack of ``game_id``, importing that pack only.

    Raises :class:`UnknownGameError` for an id no installed pack provides, and
    :class:`BadPackError` when the entry point does not give a pack of that id.
    """
    eps = _entry_points()
    ep = eps.get(game_id)
    if ep is None:
        known = sorted(eps)
        close = difflib.get_close_matches(game_id, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        installed = ", ".join(known) if known else "none"
        raise UnknownGameError(f"unknown game {game_id!r}{hint}; installed games: {installed}")
    try:
        pack = ep.load()
    except Exception as exc:  # a broken third-party pack: say which, do not crash the CLI
        raise BadPackError(f"game {game_id!r}: its pack {ep.value} does not load: {exc}") from exc
    if not isinstance(pack, GamePack):
        raise BadPackError(f"game {game_id!r}: {ep.value} is not a game pack")
    if pack.id != game_id:
        raise BadPackError(f"game {game_id!r}: {ep.value} is the pack of {pack.id!r}")
    return pack


@functools.cache
def default_pack() -> GamePack:
    """The pack of :data:`DEFAULT_GAME` (the game of a file without ``game:``), loaded by
    :func:`load_pack` once a process: the rulesets a scenario may name and the games it
    plays both come from it, and each :func:`load_pack` reads every installed
    distribution's entry points again (about 12 M instructions)."""
    return load_pack(DEFAULT_GAME)
