"""The bundled examples (examples/*.fg.yaml) and the synthetic city generator."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import shapely

from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import AreaKind, FeatureType, Material, Scenario
from fireground.engine.scenario.io import load_scenario, save_scenario
from fireground.engine.scenario.synthetic import synthetic_city

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
BUILDER = REPO / "tools" / "examples" / "build_examples.py"

#: name -> (fewest areas, most areas, most levels of any building) the issue asks for.
SIZES = {
    "stepney": (15, 20, 2),
    "paternoster": (100, 250, 5),
    "surrey_docks": (150, 300, 5),
}
#: Check codes an example may raise as warnings, each with the reason it is acceptable.
ALLOWED_WARNINGS: dict[str, dict[str, str]] = {name: {} for name in SIZES}


def _load(name: str) -> Scenario:
    return load_scenario(EXAMPLES / f"{name}.fg.yaml")


@pytest.fixture(scope="module", params=sorted(SIZES))
def example(request: pytest.FixtureRequest) -> tuple[str, Scenario]:
    return request.param, _load(request.param)


def test_examples_are_what_the_generator_draws() -> None:
    """The files are generated: hand edits would be lost on the next build."""
    run = subprocess.run(
        [sys.executable, str(BUILDER), "--check"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr


def test_header_points_at_the_schema() -> None:
    for name in SIZES:
        first = (EXAMPLES / f"{name}.fg.yaml").read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../docs/scenario.schema.json"


def test_size_and_levels(example: tuple[str, Scenario]) -> None:
    name, s = example
    lo, hi, top = SIZES[name]
    assert lo <= len(s.areas) <= hi
    assert max(b.levels for b in s.buildings) == top
    assert s.description.strip() and s.name.strip()
    kinds = {a.kind for a in s.areas}
    assert {AreaKind.BUILDING, AreaKind.STREET, AreaKind.OPEN} <= kinds


def test_round_trip(example: tuple[str, Scenario], tmp_path: Path) -> None:
    name, s = example
    out = tmp_path / f"{name}.fg.yaml"
    save_scenario(s, out)
    again = load_scenario(out)
    assert again == s
    first = out.read_bytes()
    save_scenario(again, out)
    assert out.read_bytes() == first


def _overlaps_and_near_misses(s: Scenario) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    geoms = np.array([a.shape for a in s.areas], dtype=object)
    tree = shapely.STRtree(geoms)
    i, j = tree.query(geoms, predicate="dwithin", distance=1.0)
    keep = i < j
    i, j = i[keep], j[keep]
    overlap = shapely.area(shapely.intersection(geoms[i], geoms[j])) > 0
    touching = shapely.intersects(geoms[i], geoms[j])
    ids = [a.id for a in s.areas]
    over = [(ids[a], ids[b]) for a, b in zip(i[overlap], j[overlap], strict=True)]
    near = [(ids[a], ids[b]) for a, b in zip(i[~touching], j[~touching], strict=True)]
    return over, near


def test_geometry_is_clean(example: tuple[str, Scenario]) -> None:
    _, s = example
    over, near = _overlaps_and_near_misses(s)
    assert over == [] and near == []
    for a in s.areas:
        assert a.shape.is_valid, a.id
        assert 50 <= a.shape.area <= 250, (a.id, a.shape.area)  # nominal 100 cm²


def test_every_location_reachable_and_in_hose_reach(example: tuple[str, Scenario]) -> None:
    _, s = example
    g = build_graph(s)
    foot = g.foot_graph()
    streets = [(a.id, 0) for a in s.areas if a.kind is AreaKind.STREET]
    reach: set[object] = set()
    for part in nx.connected_components(foot):
        if any(loc in part for loc in streets):
            reach |= part
    lost = [loc for loc in s.locations() if s.area(loc[0]).is_building and loc not in reach]
    assert lost == []
    wet = g.water_reach()
    dry = [loc for loc in s.locations() if s.area(loc[0]).kind is not AreaKind.WATER]
    assert [loc for loc in dry if loc not in wet] == []
    assert nx.is_connected(g.road_graph())  # every street reachable by appliances


def test_every_multilevel_building_has_stairs(example: tuple[str, Scenario]) -> None:
    _, s = example
    stairs = {s.area(f.area).building for f in s.features_of(FeatureType.STAIRWELL)}
    for b in s.buildings:
        if len(b.level_range) > 1:
            assert b.id in stairs, b.id


def test_at_most_one_feature_of_a_type_per_location(example: tuple[str, Scenario]) -> None:
    _, s = example
    keys = [(f.type, f.area, f.level) for f in s.features if f.type is not FeatureType.LABEL]
    assert len(keys) == len(set(keys))


def test_examples_use_every_feature_type_and_material() -> None:
    scenarios = [_load(n) for n in SIZES]
    types = {f.type for s in scenarios for f in s.features}
    assert types == set(FeatureType)
    materials = {f.material for s in scenarios for f in s.features if f.material}
    assert materials == set(Material)
    docks = _load("surrey_docks")
    assert all(
        docks.area(f.area).kind is AreaKind.WATER for f in docks.features_of(FeatureType.WATER)
    )
    assert {f.points for f in docks.features_of(FeatureType.WATER)} == {1000}


def test_examples_check_clean(example: tuple[str, Scenario]) -> None:
    checks = pytest.importorskip("fireground.engine.games.blitz.checks.run")
    name, s = example
    findings = checks.check(s)
    errors = [f for f in findings if str(f.severity).lower().endswith("error")]
    assert errors == []
    warnings = [f for f in findings if f not in errors and f.code not in ALLOWED_WARNINGS[name]]
    assert warnings == []


# -- the synthetic city --------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 7, 26, 133, 1000])
def test_synthetic_city_has_exactly_the_requested_size(n: int) -> None:
    s = synthetic_city(n, seed=3)
    assert len(s.areas) == n
    assert len({a.id for a in s.areas}) == n
    ids = {a.id for a in s.areas}
    assert all(f.area in ids for f in s.features)
    assert all(u.area in ids for u in s.forces if u.area is not None)
    assert {a.building for a in s.areas if a.building} == {b.id for b in s.buildings}


def test_synthetic_city_is_deterministic_per_seed() -> None:
    a, b = synthetic_city(800, seed=5), synthetic_city(800, seed=5)
    assert a == b
    assert synthetic_city(800, seed=6) != a


def test_synthetic_city_of_5000_is_a_varied_city() -> None:
    s = synthetic_city(5000)
    assert len(s.areas) == 5000
    assert max(b.levels for b in s.buildings) >= 5 and any(b.basement for b in s.buildings)
    types = {f.type for f in s.features}
    assert types >= set(FeatureType) - {FeatureType.LABEL}
    assert s.start.fires and s.forces
    # a sample of areas: none overlaps any other area
    geoms = np.array([a.shape for a in s.areas], dtype=object)
    tree = shapely.STRtree(geoms)
    sample = np.arange(0, len(geoms), 37)
    i, j = tree.query(geoms[sample], predicate="intersects")
    i = sample[i]
    other = i != j
    assert not (shapely.area(shapely.intersection(geoms[i[other]], geoms[j[other]])) > 0).any()
    # and no sampled area floats alone
    assert len(set(i[other].tolist())) == len(sample)


def test_synthetic_city_round_trips(tmp_path: Path) -> None:
    s = synthetic_city(300, seed=2)
    save_scenario(s, tmp_path / "city.fg.yaml")
    assert load_scenario(tmp_path / "city.fg.yaml") == s


def test_synthetic_city_checks_without_errors() -> None:
    checks = pytest.importorskip("fireground.engine.games.blitz.checks.run")
    findings = checks.check(synthetic_city(600, seed=4))
    assert [f for f in findings if str(f.severity).lower().endswith("error")] == []


def test_fireground_check_reports_nothing_for_the_examples() -> None:
    """The command a scenario designer runs: exit 0, no errors, no warnings."""
    import json

    for name in SIZES:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "fireground",
                "check",
                str(EXAMPLES / f"{name}.fg.yaml"),
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        report = json.loads(run.stdout)
        assert report["errors"] == []
        assert [w for w in report["warnings"] if w["code"] not in ALLOWED_WARNINGS[name]] == []


def test_historical_notes_name_their_night() -> None:
    assert "29 December 1940" in _load("paternoster").description
    assert "7 September 1940" in _load("surrey_docks").description
    assert "1940" in _load("stepney").description
