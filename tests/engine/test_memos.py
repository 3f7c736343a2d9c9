"""Typed memo keys: ``TurnContext.cache`` is keyed by :class:`Memo` objects that say whether
games may share them, and sharing the shareable ones changes no game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fireground.engine
from fireground.engine.core.memo import Memo, shared_memos
from fireground.engine.games.blitz import memos
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario

ENGINE = Path(fireground.engine.__path__[0])
EXAMPLES = blitz_examples(Path(__file__).resolve().parents[2] / "examples")


def _string_keys(tree: ast.AST) -> list[int]:
    """Lines where ``….cache`` is indexed, or get/setdefault/pop-ed, with a string literal."""
    bad = []
    for node in ast.walk(tree):
        target, key = None, None
        if isinstance(node, ast.Subscript):
            target, key = node.value, node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "setdefault", "pop")
            and node.args
        ):
            target, key = node.func.value, node.args[0]
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In):
            target, key = node.comparators[0], node.left
        if (
            isinstance(target, ast.Attribute)
            and target.attr == "cache"
            and isinstance(key, ast.Constant)
            and isinstance(key.value, str)
        ):
            bad.append(node.lineno)
    return bad


def test_no_memo_is_keyed_by_a_string():
    found = {
        str(p.relative_to(ENGINE)): lines
        for p in ENGINE.rglob("*.py")
        if (lines := _string_keys(ast.parse(p.read_text(encoding="utf-8"))))
    }
    assert found == {}
    # the checker itself sees a string key
    assert _string_keys(ast.parse('ctx.cache["x"] = 1\nctx.cache.get("y")\n"z" in ctx.cache')) == [
        1,
        2,
        3,
    ]


def test_every_blitz_memo_is_declared_once_with_a_sharing_flag():
    keys = [v for v in vars(memos).values() if isinstance(v, Memo)]
    assert len({k.name for k in keys}) == len(keys) > 30
    assert {k.name for k in shared_memos()} >= {"neighbours", "foot_links", "hose_steps"}
    assert not memos.HEAT_MEMO.shared and not memos.ORDER_BOOK.shared  # of the game in play
    assert repr(memos.NEIGHBOURS) == "Memo('neighbours', shared=True)"


@pytest.mark.parametrize("path", EXAMPLES[:2], ids=lambda p: p.name.split(".")[0])
def test_games_sharing_the_shareable_memos_play_as_games_alone(path):
    sc = load_scenario(path)
    shared: dict[Memo[object], object] = {}
    warm = new_game(sc, 11, log_events=False, shared_memos=shared)
    warm.run(8)  # fills the shared memos with a different game's map queries
    assert any(shared.values())
    with_shared = new_game(sc, 12, shared_memos=shared)
    alone = new_game(sc, 12)
    assert with_shared.run(8) == alone.run(8)
    assert with_shared.log_json() == alone.log_json()


@pytest.mark.parametrize("path", EXAMPLES[:1], ids=lambda p: p.stem)
def test_neighbours_read_backwards_alone_and_on_shared_memos(path):
    """``danger.neighbours_of`` is built whole on first use: also when the game starts from
    the shared memos' empty dict (a map memo built at once must not take an empty dict
    for a built one)."""
    from fireground.engine.games.blitz.reach import danger

    sc = load_scenario(path)
    want: dict[tuple[str, int], list[tuple[str, int]]] = {}
    alone = new_game(sc, 1, log_events=False)
    for f in alone.ctx.graph.locations:
        for x in alone.ctx.graph.neighbours(f):
            want.setdefault(x, []).append(f)
    assert want and danger.neighbours_of(alone.ctx) == want
    shared = new_game(sc, 2, log_events=False, shared_memos={})
    assert danger.neighbours_of(shared.ctx) == want
