"""The ``forestfire`` scenario file: the track board, the start and the house rules.

A file selects this pack with ``game: forestfire``. Example (every key optional but
``game``)::

    game: forestfire
    name: Forest Fire
    board: {squares: 11, square_cm: 5}      # the track map kind
    start:
      tokens: {11: 1}                        # square -> fire tokens
      engines:                               # id -> square and water
        E1: {square: 1, water: 0}
        E2: {square: 1, water: 0}
    house_rules: {burn_out.at: 6}           # any number of the ruleset (dotted key)

Structure errors (an unknown key, text where a number belongs) raise
:class:`~fireground.engine.core.errors.ScenarioError` with ``FILE:LINE:COL``; a legal structure
with an unplayable content (an engine off the board) is left to :mod:`.checks`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import Diagnostic, ScenarioError
from ...core.yamlsafe import decode, parse, position
from .rules import HouseRuleError, Rules, load_rules

GAME_ID = "forestfire"
_TOP = ("game", "version", "name", "description", "board", "start", "house_rules")
_BOARD = ("squares", "square_cm")
_START = ("tokens", "engines")
_ENGINE = ("square", "water")

Path = tuple[str, ...]


@dataclass
class EngineSetup:
    """An engine as the scenario places it."""

    id: str
    square: int
    water: int = 0


@dataclass
class Setup:
    """A Forest Fire scenario: what the file says, with where each part came from."""

    name: str = "Forest Fire"
    description: str = ""
    squares: int = 11
    square_cm: float = 5.0
    tokens: dict[int, int] = field(default_factory=lambda: {11: 1})
    engines: list[EngineSetup] = field(
        default_factory=lambda: [EngineSetup("E1", 1), EngineSetup("E2", 1)]
    )
    house_rules: dict[str, Any] = field(default_factory=dict)
    filename: str = "<scenario>"
    #: Dotted path of a value (e.g. ``start.engines.E1``) -> (line, col) in the file.
    marks: dict[str, tuple[int, int]] = field(default_factory=dict)

    def rules(self) -> Rules:
        """The ruleset in force: defaults, house rules, and this board's length and size."""
        r = load_rules(self.house_rules)
        return dataclasses.replace(r, squares=self.squares, square_cm=self.square_cm)

    def where(self, path: str) -> tuple[int, int]:
        """(line, col) of a dotted path, or of its nearest enclosing part; (0, 0) if none."""
        while path:
            if path in self.marks:
                return self.marks[path]
            path = path.rpartition(".")[0]
        return (0, 0)


def default_setup(squares: int = 11, square_cm: float = 5.0) -> Setup:
    """A new board: one token on the last square, two empty engines in the town."""
    return Setup(squares=squares, square_cm=square_cm, tokens={squares: 1})


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Reader:
    def __init__(self, root: Any, filename: str) -> None:
        self.root = root
        self.filename = filename
        self.problems: list[Diagnostic] = []
        self.marks: dict[str, tuple[int, int]] = {}

    def fail(self, path: Path, message: str, *, key: bool = False) -> None:
        line, col = position(self.root, path, key=key)
        self.problems.append(Diagnostic(self.filename, line, col, message))

    def mark(self, path: Path) -> None:
        self.marks[".".join(path)] = position(self.root, path)

    def mapping(self, value: Any, path: Path, allowed: tuple[str, ...] | None) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, f"{'.'.join(path)}: expected a mapping")
            return {}
        if allowed is not None:
            for k in value:
                if k not in allowed:
                    self.fail((*path, k), f"unknown key {k!r} (allowed: {', '.join(allowed)})",
                              key=True)  # fmt: skip
        return value

    def whole(self, value: Any, path: Path) -> int | None:
        if not _int(value):
            self.fail(path, f"{'.'.join(path)}: expected a whole number, got {value!r}")
            return None
        self.mark(path)
        return int(value)


def read_setup(text: str, filename: str) -> Setup:
    """Read a Forest Fire scenario from YAML text (see the module docstring)."""
    root = parse(text, filename)
    rd = _Reader(root, filename)
    top = rd.mapping(root, (), _TOP)
    if top.get("game") != GAME_ID:
        rd.fail(("game",), f"game: expected {GAME_ID!r}, got {top.get('game')!r}")
    s = Setup(filename=filename, tokens={}, engines=[])
    if "name" in top:
        s.name = str(top["name"])
    if "description" in top:
        s.description = str(top["description"])
    if "version" in top and top["version"] != 1:
        rd.fail(("version",), f"version: this fireground reads version 1, got {top['version']!r}")
    board = rd.mapping(top.get("board", {}), ("board",), _BOARD)
    rd.mark(("board",))
    if "squares" in board and (n := rd.whole(board["squares"], ("board", "squares"))) is not None:
        s.squares = n
    if "square_cm" in board:
        v = board["square_cm"]
        if isinstance(v, bool) or not isinstance(v, int | float) or v <= 0:
            rd.fail(("board", "square_cm"), f"board.square_cm: expected a size in cm, got {v!r}")
        else:
            s.square_cm = float(v)
            rd.mark(("board", "square_cm"))
    start = rd.mapping(top.get("start", {}), ("start",), _START)
    rd.mark(("start",))
    if "tokens" in start:
        toks = rd.mapping(start["tokens"], ("start", "tokens"), None)
        for k, v in toks.items():
            path = ("start", "tokens", k)
            try:
                sq = int(k)
            except ValueError:
                rd.fail(path, f"start.tokens: {k!r} is not a square number", key=True)
                continue
            c = rd.whole(v, path)
            if c is not None:
                if c < 0:
                    rd.fail(path, f"start.tokens.{k}: a count cannot be negative")
                    continue
                s.tokens[sq] = c
    else:
        s.tokens = {s.squares: 1}
    if "engines" in start:
        engs = rd.mapping(start["engines"], ("start", "engines"), None)
        for eid, spec in engs.items():
            path = ("start", "engines", eid)
            body = rd.mapping(spec, path, _ENGINE)
            rd.mark(path)
            esq = rd.whole(body["square"], (*path, "square")) if "square" in body else 1
            w = rd.whole(body["water"], (*path, "water")) if "water" in body else 0
            if esq is not None and w is not None:
                s.engines.append(EngineSetup(str(eid), esq, w))
    else:
        s.engines = [EngineSetup(f"E{i + 1}", 1) for i in range(load_rules().engine_count)]
    hr = rd.mapping(top.get("house_rules", {}), ("house_rules",), None)
    s.house_rules = dict(hr)
    for k in hr:
        rd.mark(("house_rules", k))
    if hr and not rd.problems:
        try:
            load_rules(hr)
        except HouseRuleError as e:
            rd.fail(("house_rules", e.key), str(e), key=True)
    if "board.squares" in hr or "board.square_cm" in hr:
        rd.fail(("house_rules",), "the board's length and size belong in board:, not house_rules")
    if "engine.count" in hr and "engines" in start:
        rd.fail(("house_rules", "engine.count"), "engine.count and start.engines both given",
                key=True)  # fmt: skip
    if "engine.count" in hr and "engines" not in start and not rd.problems:
        s.engines = [EngineSetup(f"E{i + 1}", 1) for i in range(load_rules(hr).engine_count)]
    if "tokens" not in start and not rd.problems:
        r = load_rules(hr)
        s.tokens = {r.fire_square or s.squares: r.fire_tokens}
    if rd.problems:
        raise ScenarioError(rd.problems)
    s.marks = rd.marks
    return s


def load_setup(path: str) -> Setup:
    """Read a Forest Fire scenario file."""
    with open(path, "rb") as f:
        data = f.read()
    return read_setup(decode(data, path), path)


def dump_setup(s: Setup) -> str:
    """The scenario as YAML text, keys in a fixed order (what ``new`` and the editor write)."""
    lines = [f"game: {GAME_ID}", "version: 1", f"name: {_q(s.name)}"]
    if s.description:
        lines.append(f"description: {_q(s.description)}")
    cm = f"{s.square_cm:g}"
    lines += [f"board: {{squares: {s.squares}, square_cm: {cm}}}", "start:"]
    toks = ", ".join(f"{k}: {v}" for k, v in sorted(s.tokens.items()))
    lines.append(f"  tokens: {{{toks}}}")
    lines.append("  engines:")
    for e in s.engines:
        lines.append(f"    {e.id}: {{square: {e.square}, water: {e.water}}}")
    if s.house_rules:
        lines.append("house_rules:")
        for k, v in s.house_rules.items():
            lines.append(f"  {k}: {v}")
    return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)
