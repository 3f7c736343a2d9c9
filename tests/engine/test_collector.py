"""The cyclic collector held off for a burst of work (engine/core/collector.py) and the
autopilot games that use it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from fireground.engine.core.collector import collector_paused, freeze_heap
from fireground.engine.core.turn import TurnLog
from fireground.engine.play import montecarlo
from fireground.engine.play.montecarlo import autopilot_outcomes, play_full, prepare
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


@pytest.fixture
def nothing_frozen() -> Iterator[None]:
    gc.unfreeze()  # (an editor test may have frozen its map, as the editor does)
    yield
    gc.unfreeze()  # the other tests run as before


def test_the_heap_alive_now_is_frozen(nothing_frozen: None) -> None:
    alive = [object() for _ in range(10)]
    freeze_heap()
    assert gc.get_freeze_count() >= len(alive)
    assert gc.get_count()[0] < 10  # collected first: the young generation starts afresh


def test_a_heap_frozen_before_stays_as_it_is(nothing_frozen: None) -> None:
    gc.freeze()  # as the editor does after loading a map
    before = gc.get_freeze_count()
    made_since = [[] for _ in range(100)]
    freeze_heap()
    assert gc.get_freeze_count() == before and made_since


def test_autopilot_games_run_on_a_frozen_heap(
    nothing_frozen: None, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = load_scenario(repo / "examples" / "stepney.fg.yaml")
    frozen: list[int] = []
    real_play = montecarlo.play_full

    def play(*args: object, **kw: object) -> object:
        frozen.append(gc.get_freeze_count())
        return real_play(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(montecarlo, "play_full", play)
    out = autopilot_outcomes(scenario, 2, 3, seed=1)
    assert out.games == 2
    assert len(frozen) == 1 and frozen[0] > 0
