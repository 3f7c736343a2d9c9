"""``fireground sweep`` in the engine: the varied values, the variants' games (the same
seeds for every variant, each variant's games those ``analyze`` plays for it), chunks keyed
by seed range, and the report's statistics."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from fireground.engine.core.errors import UsageError
from fireground.engine.play import sweep as sw
from fireground.engine.play.montecarlo import SCORE_FIELDS, autopilot_outcomes
from fireground.engine.play.report import ObjectiveStat, wilson
from fireground.engine.scenario.io import load_scenario

STEPNEY = Path(__file__).resolve().parents[2] / "examples" / "stepney.fg.yaml"


@pytest.fixture(scope="module")
def stepney():  # type: ignore[no-untyped-def]
    return load_scenario(STEPNEY)


# -- the varied values ----------------------------------------------------------------------
def test_parse_vary() -> None:
    assert sw.parse_vary("growth.on=5, 6") == sw.Vary("growth.on", ("5", "6"))
    for bad, says in [
        ("growth.on", "expected KEY=V1,V2"),
        ("=5", "expected KEY=V1,V2"),
        ("growth.on=", "a value is empty"),
        ("growth.on=5,,6", "a value is empty"),
        ("growth.on=5,5", "'5' is given twice"),
    ]:
        with pytest.raises(UsageError, match=says):
            sw.parse_vary(bad)


def test_force_count_by_unit_and_by_type(stepney) -> None:  # type: ignore[no-untyped-def]
    ids = [u.id for u in stepney.forces]
    assert ids == ["GA1", "OFF", "FP1"]
    none = sw.apply_value(stepney, "forces.GA1.count", "0")
    assert [u.id for u in none.forces] == ["OFF", "FP1"]
    three = sw.apply_value(stepney, "forces.GA1.count", "3")
    assert [u.id for u in three.forces] == ["GA1", "GA1-2", "GA1-3", "OFF", "FP1"]
    ga1 = stepney.forces[0]
    for u in three.forces[1:3]:  # copies arrive where and when the original does
        assert dataclasses.replace(u, id="GA1") == ga1
    by_type = sw.apply_value(stepney, "forces.general_appliance.count", "2")
    assert [u.id for u in by_type.forces] == ["GA1", "GA1-2", "OFF", "FP1"]
    assert sw.apply_value(by_type, "forces.general_appliance.count", "1").forces == stepney.forces
    later = sw.apply_value(stepney, "forces.GA1.arrives", "4")
    assert later.forces[0].arrives == 4 and later.forces[1:] == stepney.forces[1:]


def test_start_fires_wind_turns_objectives_and_house_rules(stepney) -> None:  # type: ignore[no-untyped-def]
    fires = stepney.start.fires
    assert sw.apply_value(stepney, "start.fires", "1").start.fires == fires[:1]
    assert sw.apply_value(stepney, "start.fires", "0").start.fires == ()
    hotter = sw.apply_value(stepney, "start.fires.H3.1", "3").start.fires
    assert (hotter[0].location, hotter[0].value) == (("H3", 1), 3)
    assert len(hotter) == len(fires)
    out = sw.apply_value(stepney, "start.fires.H3.1", "0").start.fires
    assert ("H3", 1) not in [f.location for f in out] and len(out) == len(fires) - 1
    more = sw.apply_value(stepney, "start.fires.H2.0", "2").start.fires
    assert more[-1].location == ("H2", 0) and more[-1].value == 2
    assert sw.apply_value(stepney, "wind.strong", "true").wind.strong is True
    assert sw.apply_value(stepney, "wind.from", "ne").wind.from_ == "NE"
    assert sw.apply_value(stepney, "wind.from", "calm").wind.from_ is None
    assert sw.apply_value(stepney, "turns", "12").turns == 12
    assert (
        sw.apply_value(stepney, "objectives.2.max_destroyed", "7").objectives[1].max_destroyed == 7
    )
    ruled = sw.apply_value(stepney, "growth.on", "5")
    assert ruled.house_rules == {"growth.on": 5}
    assert sw.apply_value(stepney, "house_rules.growth.on", "4").house_rules == {"growth.on": 4}


@pytest.mark.parametrize(
    ("key", "raw", "says"),
    [
        ("growth.onn", "5", "did you mean 'growth.on'"),
        ("growth.on", "high", "must be int"),
        ("forces.GX.count", "1", "no unit or unit type 'GX'"),
        ("forces.GA1.count", "-1", "out of range"),
        ("forces.GA1.colour", "1", "count or arrives"),
        ("forces.FP1.arrives", "3", "starts on the map"),
        ("forces.heavy_unit.count", "1", "no heavy_unit to copy"),
        ("start.fires", "6", r"out of range \(0 to 5\)"),
        ("start.fires.NOPE.0", "1", "no area 'NOPE'"),
        ("start.fires.H3.9", "1", "has no level 9"),
        ("start.fires.H3.1", "6", "out of range"),
        ("wind.from", "Q", "one of N, NE"),
        ("wind.strong", "maybe", "not true or false"),
        ("turns", "x", "not a whole number"),
        ("turns", "501", "out of range"),
        ("mains", "broken", "working or failed"),
        ("objectives.3.max_destroyed", "1", "out of range"),
        ("objectives.1.max_destroyed", "1", "objective 1 is protect"),
        ("objectives.2.colour", "1", "at_least or max_destroyed"),
    ],
)
def test_bad_keys_and_values_say_why(stepney, key: str, raw: str, says: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match=says) as e:
        sw.apply_value(stepney, key, raw)
    assert str(e.value).startswith(f"--vary {key}={raw}: ")


def test_expand_every_combination_first_key_slowest(stepney) -> None:  # type: ignore[no-untyped-def]
    varies = [sw.Vary("forces.GA1.count", ("1", "2")), sw.Vary("wind.strong", ("false", "true"))]
    vs = sw.expand(stepney, varies)
    assert [v.label for v in vs] == [
        "forces.GA1.count=1, wind.strong=false",
        "forces.GA1.count=1, wind.strong=true",
        "forces.GA1.count=2, wind.strong=false",
        "forces.GA1.count=2, wind.strong=true",
    ]
    assert [len(v.scenario.forces) for v in vs] == [3, 3, 4, 4]
    assert [v.scenario.wind.strong for v in vs] == [False, True, False, True]
    # forces differ, the wind does not: variants 0 and 2 share a graph and memos
    assert sw.share_groups(vs) == [0, 1, 0, 1]
    with pytest.raises(UsageError, match="varied twice"):
        sw.expand(stepney, [varies[0], varies[0]])
    with pytest.raises(UsageError, match="more than"):
        sw.expand(stepney, [sw.Vary("turns", tuple(str(t) for t in range(1, 41)))] * 1
                  + [sw.Vary("growth.on", ("2", "3", "4", "5", "6"))]
                  + [sw.Vary("forces.GA1.count", tuple(str(n) for n in range(6)))])  # fmt: skip


# -- the games ------------------------------------------------------------------------------
def _same(a, b) -> None:  # type: ignore[no-untyped-def]
    assert np.array_equal(a.first_alight, b.first_alight)
    assert np.array_equal(a.destroyed, b.destroyed)
    assert np.array_equal(a.all_clear_turn, b.all_clear_turn)
    assert np.array_equal(a.objectives, b.objectives)
    assert np.array_equal(a.figures, b.figures)
    for f in SCORE_FIELDS:
        assert np.array_equal(a.score[f], b.score[f]), f


def test_each_variant_plays_the_games_analyze_plays_for_it(stepney) -> None:  # type: ignore[no-untyped-def]
    """Common random numbers: every variant plays ``game_seeds(seed, games)``, and sharing
    a graph and memos between variants (different forces, start fires), or a graph alone
    (different house rules), changes no game."""
    varies = [
        sw.Vary("forces.GA1.count", ("0", "2")),
        sw.Vary("start.fires", ("1", "3")),
        sw.Vary("growth.on", ("5", "6")),
    ]
    rep, outs = sw.sweep(stepney, varies, games=5, seed=7, turns=6, workers=1)
    variants = sw.expand(stepney, varies)
    assert sw.graph_groups(variants) == [0] * 8
    assert sw.share_groups(variants) == [0, 1] * 4
    for v, out in zip(variants, outs, strict=True):
        alone = autopilot_outcomes(v.scenario, 5, 6, seed=7, workers=1)
        _same(out, alone)
    # and what was varied shows: with no appliance more is still burning after 6 turns
    burning = [int(o.score["burning"].sum()) for o in outs]
    assert all(burning[k] > burning[k + 4] for k in range(4))
    assert rep.games == 5 and rep.keys == [v.key for v in varies]


def test_graph_groups_follow_the_hose_rules_and_the_mains(stepney) -> None:  # type: ignore[no-untyped-def]
    varies = [
        sw.Vary("hose.steps_per_length", ("2", "3")),
        sw.Vary("mains", ("working", "failed")),
        sw.Vary("wind.strong", ("false", "true")),
    ]
    variants = sw.expand(stepney, varies)
    assert sw.graph_groups(variants) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert sw.share_groups(variants) == list(range(8))


def test_one_or_two_workers_give_the_same_numbers(stepney) -> None:  # type: ignore[no-untyped-def]
    varies = [sw.Vary("growth.on", ("4", "6")), sw.Vary("forces.GA1.count", ("1", "2"))]
    one, o1 = sw.sweep(stepney, varies, games=6, seed=3, turns=5, workers=1)
    two, o2 = sw.sweep(stepney, varies, games=6, seed=3, turns=5, workers=2)
    assert one.to_json() == two.to_json()
    for a, b in zip(o1, o2, strict=True):
        _same(a, b)


def test_chunks_are_keyed_by_seed_range(stepney) -> None:  # type: ignore[no-untyped-def]
    variants = sw.expand(stepney, [sw.Vary("start.fires", ("1", "2"))])
    p = sw.plan(variants, games=7, seed=1, turns=3, chunk=3)
    assert [(c.variant, c.start, c.stop) for c in p.chunks] == [
        (0, 0, 3), (0, 3, 6), (0, 6, 7), (1, 0, 3), (1, 3, 6), (1, 6, 7),
    ]  # fmt: skip
    results = sw.run_local(p, workers=1)
    assert set(results) == {c.key for c in p.chunks}
    outs = sw.gather(p, results)
    assert [o.games for o in outs] == [7, 7]
    # chunks in any order (as a cluster returns them) give the same outcomes
    shuffled = dict(reversed(list(results.items())))
    for a, b in zip(outs, sw.gather(p, shuffled), strict=True):
        _same(a, b)
    del results[(1, 3)]
    with pytest.raises(ValueError, match="1 chunks of games never came back"):
        sw.gather(p, results)


# -- the report -----------------------------------------------------------------------------
def _stat(met: int, games: int) -> ObjectiveStat:
    lo, hi = wilson(met, games)
    return ObjectiveStat("x", "protect", met, games, met / games, lo, hi)


def test_closest_to_half_and_most_balanced() -> None:
    chances = {"a": (90, 50), "b": (55, 10), "c": (30, 40), "d": (60, 55)}
    rep = sw.SweepReport(
        "s",
        None,
        100,
        0,
        ["k"],
        ["one", "two"],
        [sw.VariantStat((("k", k),), 10, [_stat(x, 100), _stat(y, 100)]) for k, (x, y) in chances.items()],
    )  # fmt: skip
    assert [v.values[0][1] for v in rep.closest(0)] == ["b", "d", "c"]
    assert [v.values[0][1] for v in rep.closest(1)] == ["a", "d", "c"]
    # the worst objective of each: a 40, b 40, c 20, d 10 points from half
    assert [v.values[0][1] for v in rep.most_balanced()] == ["d", "c", "a"]
    data = rep.to_json()
    assert data["closest_to_half"][0] == {
        "objective": "one",
        "variants": [{"k": "b"}, {"k": "d"}, {"k": "c"}],
    }
    assert data["variants"][0]["objectives"][0]["chance"] == 0.9


def test_a_varied_threshold_names_every_value(stepney) -> None:  # type: ignore[no-untyped-def]
    varies = [sw.Vary("objectives.2.max_destroyed", ("1", "3"))]
    rep, _ = sw.sweep(stepney, varies, games=3, seed=2, turns=2, workers=1)
    assert rep.objectives == [
        "protect The Rose and Crown",
        "at most 1 locations destroyed / at most 3 locations destroyed",
    ]
    assert [v.objectives[1].label for v in rep.variants] == [
        "at most 1 locations destroyed",
        "at most 3 locations destroyed",
    ]


def test_turns_option_and_a_varied_length(stepney) -> None:  # type: ignore[no-untyped-def]
    one = sw.expand(stepney, [sw.Vary("growth.on", ("5", "6"))])
    assert sw.plan(one, 2, 0, None).turns == [20, 20]
    assert sw.plan(one, 2, 0, 7).turns == [7, 7]
    two = sw.expand(stepney, [sw.Vary("turns", ("3", "9"))])
    assert sw.plan(two, 2, 0, 7).turns == [3, 9]
