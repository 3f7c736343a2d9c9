"""The scenario file's envelope: the top-level ``game:`` key chooses the game pack that
reads the rest of the file.

No ``game:`` key means ``blitz``, so every file of format v1 loads byte for byte as before
(the key is looked for without parsing the file; only a file that has it is parsed here,
to read its value and place). The pack then reads its own section of the file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ..core.errors import ScenarioError
from ..core.game import GamePack
from ..core.packs import DEFAULT_GAME, UnknownGameError, load_pack
from ..core.yamlsafe import decode, parse, position
from .io import MAX_BYTES

#: a top-level ``game:`` key (block style, at the start of a line)
_GAME_KEY = re.compile(rb"^game[ \t]*:", re.MULTILINE)


def game_of(data: bytes, filename: str = "<string>") -> str:
    """The game a scenario file is for: its ``game:`` value, else ``blitz``.

    Raises ScenarioError (with the key's place) when the value is not a game id."""
    if _GAME_KEY.search(data) is None:
        return DEFAULT_GAME
    root = parse(decode(data, filename), filename)
    if not isinstance(root, dict) or "game" not in root:
        return DEFAULT_GAME  # not a mapping, or the match was inside a block scalar
    value = root["game"]
    if not isinstance(value, str) or not value:
        line, col = position(root, ("game",))
        raise ScenarioError.at(filename, line, col, "game: must be the id of a game, e.g. blitz")
    return value


def load_game_scenario(path: str | os.PathLike[str]) -> tuple[GamePack, Any]:
    """The pack a scenario file names, and the scenario it reads from the file.

    An unknown game is a ScenarioError at the ``game:`` key, naming the installed games."""
    filename = os.fspath(path)
    with open(filename, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    game = game_of(data, filename)
    try:
        pack = load_pack(game)
    except UnknownGameError as exc:
        root = parse(decode(data, filename), filename)
        line, col = position(root, ("game",))
        raise ScenarioError.at(filename, line, col, f"game: {exc}") from None
    return pack, pack.load_scenario(filename)


def blitz_examples(folder: Path) -> list[Path]:
    """The BLITZ! scenarios of a folder (``*.fg.yaml`` without another ``game:``), sorted:
    examples/ holds every game's examples side by side."""
    out = []
    for p in sorted(folder.glob("*.fg.yaml")):
        try:
            game = game_of(p.read_bytes(), str(p))
        except ScenarioError:
            continue
        if game == DEFAULT_GAME:
            out.append(p)
    return out
