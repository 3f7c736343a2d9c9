"""Typed turn-log events (core/events.py, games/blitz/events.py): every class writes the log
JSON the dict events wrote (key order included), its repr evaluates back to an equal event,
the golden games' events are typed and round-trip, and the quiet mode makes no event."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fireground.engine.core.events import Event
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz import events as blitz_events
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
EXAMPLES = blitz_examples(HERE.parents[1] / "examples")
CLASSES = blitz_events.ALL
#: the names ``repr`` needs in scope to evaluate back
NAMESPACE = {cls.__name__: cls for cls in CLASSES}
BASE = {f.name for f in fields(Event)}


def old_dict(rule, step, where, roll, ruling, manual, outcome):
    """The event as ``TurnContext`` built it when events were dicts (the reference)."""
    ev = {"step": step, "rule": rule}
    for key, value in where.items():
        if value is None:
            continue
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
            value = {"area": value[0], "level": value[1]}
        ev[key.rstrip("_")] = value
    ev.update(roll)
    if ruling:
        ev["ruling"] = ruling
    if manual:
        ev["manual"] = True
    for key, value in outcome.items():
        if value is not None:
            ev[key] = value
    return ev


locations = st.tuples(st.sampled_from(["A1", "S2", "road-7"]), st.integers(0, 5))
plain = st.one_of(
    st.integers(-20, 20),
    st.text(max_size=8),
    st.booleans(),
    st.lists(st.integers(0, 9), max_size=3),
)


def value_for(name):
    if name in ("at", "from_", "to"):
        return st.one_of(st.none(), locations)
    return st.one_of(st.none(), plain)


@st.composite
def events(draw):
    cls = draw(st.sampled_from(CLASSES))
    own = {f.name: draw(value_for(f.name)) for f in fields(cls) if f.name not in BASE}
    roll = {
        "dice": list(draw(st.lists(st.integers(1, 6), max_size=3))),
        "modifier": draw(st.integers(-5, 5)),
        "need": draw(st.sampled_from([">=6", "<=2", "table", "auto"])),
        "success": draw(st.booleans()),
    }
    ruling = draw(st.one_of(st.none(), st.sampled_from(["R-4", "R-1,R-4"])))
    manual = draw(st.booleans())
    ev = cls(
        step=draw(st.integers(0, 10)),
        **own,
        dice=tuple(roll["dice"]),
        modifier=roll["modifier"],
        need=roll["need"],
        success=roll["success"],
        ruling=ruling,
        manual=manual,
    )
    where = {k: v for k, v in own.items() if k not in cls.outcome}
    outcome = {k: own[k] for k in cls.outcome}
    return ev, old_dict(cls.rule, ev.step, where, roll, ruling, manual, outcome)


@settings(max_examples=400, deadline=None)
@given(events())
def test_to_json_is_the_old_dict_key_for_key(case):
    ev, old = case
    assert list(ev.to_json().items()) == list(old.items())
    assert json.dumps(ev.to_json()) == json.dumps(old)


@settings(max_examples=400, deadline=None)
@given(events())
def test_the_mapping_view_answers_each_key_as_the_json_does(case):
    """``ev[key]``, ``ev.get(key)`` and ``key in ev`` look one key up without building the
    JSON: the same answers as the JSON's, for its keys and for keys it lacks (a field left
    None, ``ruling``/``manual`` when unset, a Python attribute name, a non-string)."""
    ev, _ = case
    js = ev.to_json()
    asked = [*js, "nope", "from_", "ruling", "manual", "outcome", "where_json", 3, None]
    asked += [f.name.rstrip("_") for f in fields(ev)]
    for key in asked:
        assert (key in ev) == (key in js), key
        assert ev.get(key, "absent") == js.get(key, "absent"), key
        if key in js:
            assert ev[key] == js[key] and type(ev[key]) is type(js[key]), key
        else:
            with pytest.raises(KeyError):
                ev[key]
    assert list(ev) == list(js) and len(ev) == len(js)


@settings(max_examples=400, deadline=None)
@given(events())
def test_repr_evaluates_back_to_an_equal_event(case):
    ev, _ = case
    again = eval(repr(ev), dict(NAMESPACE))
    assert again == ev
    assert type(again) is type(ev)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_class_repr_round_trips_with_defaults_and_is_frozen(cls):
    ev = cls(step=3)
    assert eval(repr(ev), dict(NAMESPACE)) == ev
    assert repr(ev) == f"{cls.__name__}(step=3)"
    with pytest.raises(FrozenInstanceError):
        ev.step = 4  # type: ignore[misc]
    assert ev.to_json() == {
        "step": 3, "rule": cls.rule, "dice": [], "modifier": 0, "need": "auto", "success": True
    }  # fmt: skip


def test_one_class_per_rule_but_climb():
    """Each rule has one class, but ``climb`` (a unit climbing, a fire climbing: R-1)."""
    rules = [cls.rule for cls in CLASSES]
    doubled = sorted({r for r in rules if rules.count(r) > 1})
    assert doubled == ["climb"]
    assert len({cls.__name__ for cls in CLASSES}) == len(CLASSES)


def test_an_unknown_field_is_refused():
    with pytest.raises(TypeError):
        blitz_events.Growth(step=2, where=("A1", 1))  # type: ignore[call-arg]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.removesuffix(".fg.yaml"))
def test_golden_games_events_are_typed_and_round_trip(path):
    """The golden games (10 turns, seed 1940) again: every event is an instance of a BLITZ!
    class naming its rule, writes the golden's event, and its repr evaluates back."""
    golden = json.loads((GOLDEN / f"{path.name.removesuffix('.fg.yaml')}.json").read_text())
    game = new_game(load_scenario(path), 1940)
    game.run(10)
    seen = 0
    for log, stored in zip(game.logs, golden["turns"], strict=True):
        assert len(log.events) == len(stored["events"])
        for ev, old in zip(log.events, stored["events"], strict=True):
            assert isinstance(ev, CLASSES) and ev.rule == old["rule"]
            assert list(ev.to_json().items()) == list(old.items())
            assert eval(repr(ev), dict(NAMESPACE)) == ev
            # the mapping view, for readers of the old dicts
            assert ev["rule"] == old["rule"] and ev.get("nope") is None
            assert list(ev) == list(old) and len(ev) == len(old) and ("dice" in ev)
            seen += 1
    assert seen > 0


def test_amend_adds_an_outcome_and_the_quiet_mode_makes_no_event():
    path = EXAMPLES[0]
    game = new_game(load_scenario(path), 1940)
    ctx = game.ctx
    ctx.reset_events()
    ctx.roll(blitz_events.BombRun, dice=2)
    ctx.amend(result="stick")
    assert ctx.events[-1].result == "stick"
    assert list(ctx.events[-1].to_json())[-1] == "result"

    class NoEvent(TurnContext):
        """A context whose rolls may make no event object at all (a subclass: the context's
        class is compiled, and a compiled class's methods cannot be patched)."""

        def _event(self, *args, **kwargs):
            raise AssertionError("the quiet mode made an event")

    quiet = new_game(load_scenario(path), 1940, log_events=False)
    c = quiet.ctx
    quiet.ctx = NoEvent(c.scenario, c.graph, c.rules, c.dice, log_events=False, policies=c.policies)
    quiet.run(5)
    assert quiet.ctx.events == []
    quiet.ctx.amend(result="stick")  # nothing to amend: no error, no event
    assert quiet.ctx.events == []
