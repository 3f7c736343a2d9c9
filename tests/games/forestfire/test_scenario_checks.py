"""The forestfire scenario section and its checks (FF1nn)."""

from __future__ import annotations

import pytest

from fireground.engine.core.errors import ScenarioError
from fireground.engine.games.forestfire.checks import check_setup
from fireground.engine.games.forestfire.scenario import default_setup, dump_setup, read_setup


def codes(text: str) -> list[str]:
    return [f.code for f in check_setup(read_setup(text, "t.fg.yaml"))]


def test_a_new_board_checks_clean_and_round_trips() -> None:
    s = default_setup()
    text = dump_setup(s)
    back = read_setup(text, "t.fg.yaml")
    assert check_setup(back) == []
    assert (back.squares, back.tokens, [(e.id, e.square, e.water) for e in back.engines]) == (
        11, {11: 1}, [("E1", 1, 0), ("E2", 1, 0)])  # fmt: skip
    assert dump_setup(back) == text


def test_board_shorter_than_3_squares() -> None:
    assert "FF101" in codes("game: forestfire\nboard: {squares: 2}\nstart: {tokens: {2: 1}}\n")


def test_engine_off_the_board_with_its_line() -> None:
    text = "game: forestfire\nboard: {squares: 7}\nstart:\n  engines:\n    E1: {square: 9}\n"
    f = check_setup(read_setup(text, "t.fg.yaml"))
    assert [x.code for x in f] == ["FF104"] and f[0].line == 5
    assert "square 9" in f[0].message


def test_other_findings() -> None:
    assert codes("game: forestfire\nstart: {tokens: {14: 1}}\n") == ["FF102", "FF103"]
    assert codes("game: forestfire\nstart: {engines: {E1: {square: 1, water: 7}}}\n") == ["FF105"]
    assert codes("game: forestfire\nstart: {tokens: {3: 1}, engines: {E1: {square: 3}}}\n") == [
        "FF106"]  # fmt: skip
    assert codes("game: forestfire\nhouse_rules: {rounds.max: 0}\n") == ["FF108"]
    assert codes("game: forestfire\nhouse_rules: {vp.marginal: 12}\n") == ["FF109"]


def test_house_rules_set_the_numbers() -> None:
    s = read_setup("game: forestfire\nhouse_rules:\n  burn_out.at: 8\n", "t.fg.yaml")
    assert s.rules().burn_out_at == 8 and s.tokens == {11: 1}


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        (
            "game: forestfire\nhouse_rules:\n  burn_out.never: 3\n",
            "t.fg.yaml:3:3",
            "unknown house rule",
        ),
        ("game: forestfire\nboard: {squares: many}\n", "t.fg.yaml:2:18", "whole number"),
        ("game: forestfire\nboard: {length: 5}\n", "t.fg.yaml:2:9", "unknown key 'length'"),
        ("game: forestfire\nstart:\n  tokens: {x: 1}\n", "t.fg.yaml:3:12", "not a square"),
    ],
)
def test_structure_errors_say_file_line_col(text: str, where: str, says: str) -> None:
    with pytest.raises(ScenarioError) as e:
        read_setup(text, "t.fg.yaml")
    assert str(e.value).startswith(where) and says in str(e.value)
