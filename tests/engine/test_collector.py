"""The cyclic collector held off for a burst of work (engine/core/collector.py) and the
autopilot games that use it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from fireground.engine.core.collector import collector_paused
from fireground.engine.core.turn import TurnLog
from fireground.engine.play.montecarlo import play_full, prepare
from fireground.engine.play.simulate import Game
from fireground.engine.scenario.io import load_scenario


@pytest.fixture
def collector_on() -> Iterator[None]:
    was_on = gc.isenabled()
    gc.enable()
    yield
    if not was_on:
        gc.disable()


def test_paused_inside_and_back_on_after(collector_on: None) -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_back_on_after_an_error(collector_on: None) -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_left_off_if_it_was_off(collector_on: None) -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_autopilot_games_leave_the_collector_on(
    collector_on: None, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = load_scenario(repo / "examples" / "stepney.fg.yaml")
    seen: list[bool] = []
    real_step = Game.step

    def step(self: Game) -> TurnLog:
        seen.append(gc.isenabled())
        return real_step(self)

    monkeypatch.setattr(Game, "step", step)
    play_full(scenario, [1, 2], 3, prepare(scenario))
    assert seen == [False] * 6  # every turn of both games played with the collector off
    assert gc.isenabled()


def test_autopilot_games_freeze_what_lasts_and_put_it_back(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between games the collector skips what the earlier games left (gc.freeze after
    each game: the second game starts with objects frozen), and the chunk puts them back
    as it ends, even when a game raises."""
    scenario = load_scenario(repo / "examples" / "stepney.fg.yaml")
    frozen: list[int] = []
    real_step = Game.step

    def step(self: Game) -> TurnLog:
        frozen.append(gc.get_freeze_count())
        return real_step(self)

    monkeypatch.setattr(Game, "step", step)
    gc.unfreeze()
    play_full(scenario, [1, 2], 2, prepare(scenario))
    assert frozen[:2] == [0, 0]  # the first game: nothing frozen yet
    assert frozen[2] > 0 and frozen[3] > 0  # the second: the first game's leftovers
    assert gc.get_freeze_count() == 0

    def boom(self: Game) -> TurnLog:
        raise RuntimeError("boom")

    monkeypatch.setattr(Game, "step", boom)
    with pytest.raises(RuntimeError):
        play_full(scenario, [1, 2], 2, prepare(scenario))
    assert gc.get_freeze_count() == 0


def test_autopilot_games_leave_a_callers_frozen_objects_alone(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = load_scenario(repo / "examples" / "stepney.fg.yaml")
    calls: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    monkeypatch.setattr(gc, "get_freeze_count", lambda: 5)  # a caller froze some
    play_full(scenario, [1, 2], 2, prepare(scenario))
    assert calls == []
    monkeypatch.setattr(gc, "get_freeze_count", lambda: 0)  # (the control: none frozen)
    play_full(scenario, [1, 2], 2, prepare(scenario))
    assert calls == ["freeze", "freeze", "unfreeze"]
