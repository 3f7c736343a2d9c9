"""The game file (``*.fgame.yaml``): a game at the table, stopped and resumed anywhere.

It holds the scenario (embedded, so that a later change to the scenario file cannot corrupt
a game in progress), the seed, and every turn's orders, rolls (a manual roll marked
``"manual": true``) and state digest, then the state after the last turn and the score::

    # fireground game file: ...
    fireground_game: 1
    seed: 7
    turn: 2
    scenario: |
      fireground: 1
      ...
    turns:
    - turn: 1
      orders: []
      rolls:
      - {"step":1,"rule":"spread",...,"dice":[2],"need":"<=2","success":true}
      state: sha256:...
    state: {...}
    score: {...}

Writing is deterministic (the same game gives the same bytes) and atomic (the old or the
new file survives a crash). Reading is defensive, as for scenarios: every problem is a
:class:`~..errors.ScenarioError` with ``FILE:LINE:COL``, and loading replays every turn and
refuses a file whose rolls or states the engine does not play back exactly.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from ..core.errors import Diagnostic, ScenarioError
from ..core.log import dumps
from ..core.yamlsafe import Mark, MDict, MList, decode, parse
from ..games.blitz.orders.check import KINDS
from ..scenario.emit import dump_scenario
from ..scenario.io import atomic_write, loads_scenario
from .table import PlayedTurn, ReplayError, TableGame, replay

GAME_VERSION = 1
MAX_GAME_BYTES = 64 * 1024 * 1024
#: The longest game the scenario format allows (``turns`` in model_schema's RANGES): a file
#: with more turns is refused rather than replayed for hours.
MAX_GAME_TURNS = 500
_ORDER_KEYS = frozenset({"unit", "kind", "turn", "to", "at", "path", "source", "face", "pump"})
_KEYS = ("fireground_game", "seed", "turn", "scenario", "turns", "state", "score")

_HEADER = (
    "# fireground game file, written by `fireground play` (scenario-format.md, game file).\n"
    "# Every turn is replayed and checked when the file is read: do not edit the turns.\n"
)


def dump_game(tg: TableGame) -> str:
    """The game file's text (the same game gives the same bytes)."""
    out = [_HEADER, f"fireground_game: {GAME_VERSION}\n", f"seed: {tg.seed}\n"]
    out.append(f"turn: {tg.turn}\n")
    out.append("scenario: |\n")
    for line in dump_scenario(tg.scenario).splitlines():
        out.append(f"  {line}\n" if line else "\n")
    if not tg.turns:
        out.append("turns: []\n")
    else:
        out.append("turns:\n")
    for rec in tg.turns:
        out.append(f"- turn: {rec.turn}\n")
        out.append(_flow_list("orders", rec.orders))
        out.append(_flow_list("rolls", rec.rolls))
        out.append(f"  state: {rec.digest}\n")
    out.append(f"state: {dumps(tg.state_log())}")
    out.append(f"score: {dumps(tg.score())}")
    return "".join(out)


def _flow_list(key: str, items: list[dict[str, Any]]) -> str:
    if not items:
        return f"  {key}: []\n"
    return f"  {key}:\n" + "".join(f"  - {dumps(item)}" for item in items)


def save_game(tg: TableGame, path: str | os.PathLike[str], *, backup: bool = True) -> None:
    """Write the game file atomically (the previous file kept as ``path.bak``)."""
    atomic_write(path, dump_game(tg).encode("utf-8"), backup=backup)


def load_game(path: str | os.PathLike[str]) -> TableGame:
    """Read a game file and replay it. Raises ScenarioError (bad content) or OSError."""
    name = os.fspath(path)
    st = os.stat(name)
    if stat.S_ISREG(st.st_mode) and st.st_size > MAX_GAME_BYTES:
        raise ScenarioError.at(name, 1, 1, f"file too large ({st.st_size} bytes)")
    with open(name, "rb") as f:
        data = f.read(MAX_GAME_BYTES + 1)
    if len(data) > MAX_GAME_BYTES:
        raise ScenarioError.at(name, 1, 1, f"file too large (over {MAX_GAME_BYTES} bytes)")
    return loads_game(decode(data, name), name)


def loads_game(text: str, name: str = "<game>") -> TableGame:
    """Parse a game file's text and replay it (``name`` is used in messages)."""
    root = parse(text, name)

    def err(mark: Mark, msg: str) -> ScenarioError:
        return ScenarioError([Diagnostic(name, mark[0], mark[1], msg)])

    if not isinstance(root, MDict):
        raise err(getattr(root, "mark", (1, 1)), "not a fireground game file")
    vm, km = root.vmarks, root.kmarks
    for k in root:
        if k not in _KEYS:
            raise err(km.get(k, root.mark), f"unknown key {k!r} in a game file")
    for k in ("fireground_game", "seed", "scenario", "turns"):
        if k not in root:
            raise err(root.mark, f"a game file needs {k!r}")
    version = root["fireground_game"]
    if version != GAME_VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > 1
        why = "written by a newer fireground" if newer else "not a known game file version"
        raise err(vm["fireground_game"], f"fireground_game {version!r}: {why}")
    seed = root["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise err(vm["seed"], "seed must be a whole number from 0")
    if not isinstance(root["scenario"], str):
        raise err(vm["scenario"], "scenario must be the scenario's text (a `|` block)")
    scenario = _embedded_scenario(root["scenario"], vm["scenario"], name)
    turns_data = root["turns"]
    if not isinstance(turns_data, MList):
        raise err(vm["turns"], "turns must be a list")
    if len(turns_data) > MAX_GAME_TURNS:
        raise err(vm["turns"], f"{len(turns_data)} turns: a game has at most {MAX_GAME_TURNS}")
    records: list[PlayedTurn] = []
    marks: list[tuple[Mark, list[Mark], Mark]] = []
    for i, item in enumerate(turns_data):
        mark = turns_data.vmarks[i]
        rec, roll_marks, state_mark = _turn(item, mark, i + 1, err)
        records.append(rec)
        marks.append((mark, roll_marks, state_mark))
    if "turn" in root and root["turn"] != len(records):
        raise err(vm["turn"], f"turn {root['turn']!r} but {len(records)} turns are recorded")
    try:
        return replay(scenario, seed, records)
    except ReplayError as exc:
        mark, roll_marks, state_mark = marks[exc.turn - 1]
        if exc.roll is not None and exc.roll < len(roll_marks):
            mark = roll_marks[exc.roll]
        elif exc.roll is None and "state differs" in str(exc):
            mark = state_mark
        raise err(mark, str(exc)) from None


def _embedded_scenario(text: str, mark: Mark, name: str) -> Any:
    """The embedded scenario; its problems are placed in the game file (the block's text
    starts on the line after ``scenario: |``, indented two spaces)."""
    try:
        return loads_scenario(text, name)
    except ScenarioError as exc:
        moved = [
            Diagnostic(name, d.line + mark[0], d.col + 2, d.message)
            if d.line
            else Diagnostic(name, mark[0], mark[1], d.message)
            for d in exc.diagnostics
        ]
        raise ScenarioError(moved) from None


def _turn(item: Any, mark: Mark, number: int, err: Any) -> tuple[PlayedTurn, list[Mark], Mark]:
    if not isinstance(item, MDict):
        raise err(mark, "each turn is a mapping with turn, orders, rolls and state")
    for k in item:
        if k not in ("turn", "orders", "rolls", "state"):
            raise err(item.kmarks.get(k, mark), f"unknown key {k!r} in a turn")
    for k in ("turn", "orders", "rolls", "state"):
        if k not in item:
            raise err(mark, f"a turn needs {k!r}")
    if item["turn"] != number:
        raise err(item.vmarks["turn"], f"turn {item['turn']!r} where turn {number} belongs")
    orders = item["orders"]
    if not isinstance(orders, MList):
        raise err(item.vmarks["orders"], "orders must be a list")
    for j, o in enumerate(orders):
        om = orders.vmarks[j]
        if not isinstance(o, dict) or not isinstance(o.get("unit"), str):
            raise err(om, "an order is a mapping with unit and kind")
        unknown = sorted(set(o) - _ORDER_KEYS)
        if unknown:
            raise err(om, f"unknown key {unknown[0]!r} in an order")
        if o.get("kind") not in KINDS:
            raise err(om, f"unknown order kind {o.get('kind')!r}")
        for key in ("to", "at"):
            v = o.get(key)
            if v is not None and not _is_loc(v):
                raise err(om, f"{key} must be [AREA, LEVEL]")
        path = o.get("path", [])
        if not isinstance(path, list) or not all(_is_loc(p) for p in path):
            raise err(om, "path must be a list of [AREA, LEVEL]")
        for key in ("source", "face", "pump"):
            if key in o and not isinstance(o[key], str):
                raise err(om, f"{key} must be text")
        if o.get("turn") != number:
            raise err(om, f"an order of turn {number} says turn {o.get('turn')!r}")
    rolls = item["rolls"]
    if not isinstance(rolls, MList):
        raise err(item.vmarks["rolls"], "rolls must be a list")
    for j, r in enumerate(rolls):
        rm = rolls.vmarks[j]
        if not isinstance(r, dict) or not isinstance(r.get("rule"), str):
            raise err(rm, "a roll is a mapping with rule and dice")
        dice = r.get("dice", [])
        if not isinstance(dice, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in dice
        ):
            raise err(rm, "dice must be a list of whole numbers from 1 to 6")
        if "manual" in r and r["manual"] is not True:
            raise err(rm, "manual is true or absent")
    digest = item["state"]
    if not isinstance(digest, str) or not digest.startswith("sha256:"):
        raise err(item.vmarks["state"], "state must be the sha256: digest of the turn's state")
    rec = PlayedTurn(number, [_plain(o) for o in orders], [_plain(r) for r in rolls], digest)
    return rec, list(rolls.vmarks), item.vmarks["state"]


def _is_loc(v: Any) -> bool:
    return (
        isinstance(v, list)
        and len(v) == 2
        and isinstance(v[0], str)
        and isinstance(v[1], int)
        and not isinstance(v[1], bool)
    )


def _plain(v: Any) -> Any:
    """Plain dicts and lists (the reader's marked ones compare and dump the same, but the
    records should not carry marks around)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v
