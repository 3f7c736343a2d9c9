"""Every check code with a case that triggers it and a close case that does not."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
    LocationRef,
    LocationValue,
    Objective,
    Scenario,
    Start,
)
from fireground.engine.games.blitz.checks import run as checks_mod
from fireground.engine.games.blitz.checks.context import Finding
from fireground.engine.games.blitz.checks.run import check, errors

ST, OP, WA, BU = AreaKind.STREET, AreaKind.OPEN, AreaKind.WATER, AreaKind.BUILDING
F = FeatureType


def rect(x: float, y: float, w: float = 10, h: float = 10) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def base() -> Scenario:
    """A clean little map: street R0..R3, a river south, shop (2 levels, stair) and
    house (1 level) north of the street, a yard Y north of the house."""
    areas = (
        *(Area(f"R{k}", ST, rect(k * 10, 0)) for k in range(4)),
        Area("W", WA, rect(0, -10, 40, 10)),
        Area("S1", BU, rect(0, 10), building="shop"),
        Area("S2", BU, rect(10, 10), building="shop"),
        Area("H1", BU, rect(20, 10), building="house"),
        Area("Y", OP, rect(20, 20)),
    )
    return Scenario(
        name="base",
        buildings=(Building("shop", levels=2, basement=True), Building("house")),
        areas=areas,
        features=(
            Feature(F.STAIRWELL, "S1"),
            Feature(F.HYDRANT, "R0", pressure=3),
            Feature(F.ENTRY, "R3", name="east"),
            Feature(F.STORE, "S2", level=1, material=None),
            Feature(F.OCCUPANTS, "H1", level=0, count=2),
        ),
        start=Start(fires=(LocationValue("S2", 1, 2),), embers=(LocationRef("H1", 0),)),
        forces=(
            ForceUnit("E1", "escape_carrying_unit", area="R1"),
            ForceUnit("T1", "turntable_ladder_unit", entry="east", arrives=3),
            ForceUnit("FP", "fire_party", area="S1", level=1),
        ),
        objectives=(Objective("protect", building="shop"), Objective("rescue", at_least=1)),
    )


def codes(s: Scenario) -> dict[str, str]:
    """code -> severity of the findings (all findings of one code share a severity)."""
    return {f.code: f.severity for f in check(s)}


def with_(s: Scenario, **kw: Any) -> Scenario:
    return replace(s, **kw)


def area(s: Scenario, aid: str, **kw: Any) -> Scenario:
    return with_(s, areas=tuple(replace(a, **kw) if a.id == aid else a for a in s.areas))


def plus_features(s: Scenario, *fs: Feature) -> Scenario:
    return with_(s, features=(*s.features, *fs))


def plus_forces(s: Scenario, *us: ForceUnit) -> Scenario:
    return with_(s, forces=(*s.forces, *us))


def test_base_is_clean() -> None:
    assert check(base()) == []


def test_findings_are_sorted_values_with_lines_and_str() -> None:
    s = area(base(), "S1", polygon=rect(0, 10, 10, 1))  # tiny: FG114
    s = plus_features(s, Feature(F.HYDRANT, "S2"))  # FG120 error
    s = replace(s, source={("areas", 5): (12, 5), ("features", 5): (30, 5)})
    found = check(s)
    assert [f.code for f in found][:1] == ["FG120"]  # errors first
    f120 = next(f for f in found if f.code == "FG120")
    assert f120 == Finding("FG120", "error", f120.message, "S2", 0, 30)
    assert str(f120).startswith("FG120 hydrant in building area S2")
    f114 = next(f for f in found if f.code == "FG114")
    assert f114.line == 12 and f114.area == "S1"
    assert errors(found) == [f120]


# -- geometry -------------------------------------------------------------------------------
def test_fg110_invalid_polygon() -> None:
    bow = ((0, 10), (10, 20), (10, 10), (0, 25))  # lobes of unequal size
    assert codes(area(base(), "S1", polygon=bow))["FG110"] == "error"
    assert "FG110" not in codes(base())


def test_fg111_degenerate_polygon() -> None:
    assert codes(area(base(), "S1", polygon=((0, 10), (10, 10))))["FG111"] == "error"
    flat = ((0, 10), (5, 10), (10, 10))
    assert codes(area(base(), "S1", polygon=flat))["FG111"] == "error"
    nan = ((0, 10), (float("nan"), 10), (10, 20))
    assert codes(area(base(), "S1", polygon=nan))["FG111"] == "error"
    assert "FG111" not in codes(base())


def test_fg112_overlap_beyond_tolerance() -> None:
    s = area(base(), "S2", polygon=rect(9, 10, 10, 10))  # 10 cm² into S1
    assert codes(s)["FG112"] == "error"
    slight = area(base(), "S2", polygon=rect(9.98, 10, 10.02, 10))  # 0.2 cm²: tolerated
    assert "FG112" not in codes(slight)


def test_fg113_near_miss() -> None:
    s = area(base(), "S2", polygon=rect(10.5, 10, 9.5, 10))  # 0.5 cm from S1
    found = check(s)
    assert any(f.code == "FG113" and f.severity == "warning" and "S1" in f.message for f in found)
    apart = area(base(), "Y", polygon=rect(20, 21.5, 10, 10))  # 1.5 cm from H1: deliberate
    assert "FG113" not in codes(apart)
    assert "FG113" not in codes(base())  # touching edges and corners are not near-misses


def test_fg112_fg113_for_shapes_that_are_not_rectangles() -> None:
    tri = ((20, 20), (30, 20), (20, 30))  # the yard as a triangle
    ok = area(base(), "Y", polygon=tri)
    assert not {"FG112", "FG113"} & set(codes(ok))
    into = area(base(), "Y", polygon=((20, 18), (30, 18), (20, 30)))  # 2 cm into H1
    assert codes(into)["FG112"] == "error"
    slip = area(base(), "Y", polygon=((20, 20.4), (30, 20.4), (20, 30)))
    assert codes(slip)["FG113"] == "warning"


def test_fg114_odd_size() -> None:
    assert codes(area(base(), "Y", polygon=rect(20, 20, 30, 30)))["FG114"] == "warning"
    assert codes(area(base(), "Y", polygon=rect(20, 20, 4, 5)))["FG114"] == "warning"
    assert "FG114" not in codes(area(base(), "Y", polygon=rect(20, 20, 20, 10)))
    assert "FG114" not in codes(area(base(), "W", polygon=rect(0, -100, 40, 100)))  # water


# -- references -----------------------------------------------------------------------------
def test_fg115_duplicate_ids() -> None:
    s = base()
    dup = with_(s, areas=(*s.areas, Area("Y", OP, rect(30, 20))))
    assert codes(dup)["FG115"] == "error"
    assert codes(plus_forces(s, ForceUnit("E1", "fire_party", area="R2")))["FG115"] == "error"
    assert "FG115" not in codes(with_(s, areas=(*s.areas, Area("Y2", OP, rect(30, 20)))))


def test_fg116_building_references() -> None:
    assert codes(area(base(), "S1", building="nope"))["FG116"] == "error"
    assert codes(area(base(), "S1", building=None))["FG116"] == "error"
    assert codes(area(base(), "Y", building="shop"))["FG116"] == "error"
    assert "FG116" not in codes(base())


def test_fg117_building_without_areas() -> None:
    s = with_(base(), buildings=(*base().buildings, Building("ghost")))
    assert codes(s)["FG117"] == "warning"
    assert "FG117" not in codes(base())


# -- features -------------------------------------------------------------------------------
def test_fg120_hydrant_outside_street_or_open() -> None:
    assert codes(plus_features(base(), Feature(F.HYDRANT, "H1")))["FG120"] == "error"
    assert codes(plus_features(base(), Feature(F.HYDRANT, "W")))["FG120"] == "error"
    assert "FG120" not in codes(plus_features(base(), Feature(F.HYDRANT, "Y", pressure=2)))


def test_fg121_hydrant_serves_at_most_two_appliances() -> None:
    three = plus_forces(
        base(),
        ForceUnit("G1", "general_appliance", area="R0"),
        ForceUnit("G2", "general_appliance", area="R0"),
    )  # with E1 at R1: three appliances whose nearest water is hydrant R0
    found = [f for f in check(three) if f.code == "FG121"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "E1, G1, G2" in found[0].message
    two = plus_forces(base(), ForceUnit("G1", "general_appliance", area="R0"))
    assert "FG121" not in codes(two)
    # A second hydrant nearer to one of them shares the load.
    shared = plus_forces(
        plus_features(base(), Feature(F.HYDRANT, "R3", pressure=3)),
        ForceUnit("G1", "general_appliance", area="R0"),
        ForceUnit("G2", "general_appliance", area="R3"),
    )
    assert "FG121" not in codes(shared)


def test_fg122_stairwell_in_one_level_building() -> None:
    assert codes(plus_features(base(), Feature(F.STAIRWELL, "H1")))["FG122"] == "warning"
    assert codes(plus_features(base(), Feature(F.STAIRWELL, "R2")))["FG122"] == "warning"
    assert "FG122" not in codes(plus_features(base(), Feature(F.STAIRWELL, "S2")))


def test_fg123_feature_at_missing_level() -> None:
    s = plus_features(base(), Feature(F.STORE, "H1", level=1, material=None))
    assert codes(s)["FG123"] == "error"
    s = plus_features(base(), Feature(F.OCCUPANTS, "S1", level=-2, count=1))
    assert codes(s)["FG123"] == "error"
    ok = plus_features(base(), Feature(F.OCCUPANTS, "S1", level=-1, count=1))  # basement
    assert "FG123" not in codes(ok)


def test_fg124_feature_on_unknown_area() -> None:
    assert codes(plus_features(base(), Feature(F.LABEL, "nowhere", text="x")))["FG124"] == "error"
    assert "FG124" not in codes(plus_features(base(), Feature(F.LABEL, "Y", text="x")))


def test_fg125_entry_not_on_street() -> None:
    assert codes(plus_features(base(), Feature(F.ENTRY, "Y", name="yard")))["FG125"] == "error"
    assert "FG125" not in codes(plus_features(base(), Feature(F.ENTRY, "R0", name="west")))


def test_fg126_open_water_source_placement() -> None:
    assert codes(plus_features(base(), Feature(F.WATER, "R2", points=50)))["FG126"] == "warning"
    assert "FG126" not in codes(plus_features(base(), Feature(F.WATER, "W", points=50)))
    assert "FG126" not in codes(plus_features(base(), Feature(F.WATER, "Y", points=20)))


def test_fg127_two_features_of_a_kind_at_one_location() -> None:
    s = plus_features(base(), Feature(F.STORE, "S2", level=1, material=None))
    assert codes(s)["FG127"] == "error"
    other_level = plus_features(base(), Feature(F.STORE, "S2", level=0, material=None))
    assert "FG127" not in codes(other_level)
    labels = plus_features(base(), Feature(F.LABEL, "Y", text="a"), Feature(F.LABEL, "Y", text="b"))
    assert "FG127" not in codes(labels)


# -- start ----------------------------------------------------------------------------------
def test_fg130_start_at_missing_location() -> None:
    s = with_(base(), start=Start(fires=(LocationValue("H1", 1, 1),)))
    assert codes(s)["FG130"] == "error"
    s = with_(base(), start=Start(damp=(LocationValue("zz", 0, 1),)))
    assert codes(s)["FG130"] == "error"
    s = with_(base(), start=Start(rubble=("zz",)))
    assert codes(s)["FG130"] == "error"
    assert "FG130" not in codes(with_(base(), start=Start(fires=(LocationValue("S1", -1, 1),))))


def test_fg131_fire_on_water() -> None:
    assert codes(with_(base(), start=Start(fires=(LocationValue("W", 0, 1),))))["FG131"] == "error"
    assert codes(with_(base(), start=Start(embers=(LocationRef("W", 0),))))["FG131"] == "error"
    assert "FG131" not in codes(with_(base(), start=Start(fires=(LocationValue("R2", 0, 1),))))


def test_fg132_big_fire_on_empty_street() -> None:
    hot = with_(base(), start=Start(fires=(LocationValue("R2", 0, 3),)))
    assert codes(hot)["FG132"] == "warning"
    assert "FG132" not in codes(with_(base(), start=Start(fires=(LocationValue("R2", 0, 1),))))
    rubble = with_(base(), start=Start(fires=(LocationValue("R2", 0, 3),), rubble=("R2",)))
    assert "FG132" not in codes(rubble)
    vehicle = with_(hot, forces=(ForceUnit("E9", "general_appliance", area="R2"),))
    assert "FG132" not in codes(vehicle)


def test_fg133_rubble_off_street() -> None:
    assert codes(with_(base(), start=Start(craters=("S1",))))["FG133"] == "error"
    assert "FG133" not in codes(with_(base(), start=Start(rubble=("Y",), craters=("R2",))))


# -- units ----------------------------------------------------------------------------------
def test_fg140_unknown_unit_type() -> None:
    assert codes(plus_forces(base(), ForceUnit("X", "zeppelin", area="R2")))["FG140"] == "error"
    assert "FG140" not in codes(plus_forces(base(), ForceUnit("X", "doctor", area="R2")))


@pytest.mark.parametrize(
    "unit",
    [
        ForceUnit("X", "doctor"),  # neither area nor entry
        ForceUnit("X", "doctor", area="R2", entry="east"),  # both
        ForceUnit("X", "doctor", entry="north"),  # unknown entry
        ForceUnit("X", "doctor", area="zz"),  # unknown area
        ForceUnit("X", "doctor", area="H1", level=3),  # no such level
        ForceUnit("X", "doctor", area="W"),  # on water
    ],
)
def test_fg141_unit_start_cannot_exist(unit: ForceUnit) -> None:
    assert codes(plus_forces(base(), unit))["FG141"] == "error"


def test_fg141_negative() -> None:
    s = plus_forces(
        base(), ForceUnit("X", "doctor", entry="east"), ForceUnit("Y", "doctor", area="Y")
    )
    assert "FG141" not in codes(s)


def test_fg142_vehicle_off_road() -> None:
    assert codes(plus_forces(base(), ForceUnit("X", "heavy_unit", area="S1")))["FG142"] == "error"
    assert codes(plus_forces(base(), ForceUnit("X", "heavy_unit", area="Y")))["FG142"] == "warning"
    assert "FG142" not in codes(plus_forces(base(), ForceUnit("X", "heavy_unit", area="R3")))


def test_fg143_vehicle_on_street_cut_off_from_entries() -> None:
    s = plus_forces(base(), ForceUnit("X", "heavy_unit", area="R0"))
    cut = with_(s, areas=(*s.areas, Area("R9", ST, rect(50, 0))))
    cut = with_(cut, forces=(*cut.forces, ForceUnit("Z", "heavy_unit", area="R9")))
    found = [f for f in check(cut) if f.code == "FG143"]
    assert [f.area for f in found] == ["R9"] and found[0].severity == "warning"
    assert "FG143" not in codes(s)


def test_fg144_foot_unit_where_no_one_can_walk() -> None:
    s = with_(base(), buildings=(Building("shop", levels=8), Building("house")))
    s = with_(s, features=tuple(f for f in s.features if f.type is not F.STAIRWELL))
    stuck = plus_forces(s, ForceUnit("X", "rescue_team", area="S1", level=6))  # above ladders
    assert codes(stuck)["FG144"] == "warning"
    ladder = plus_forces(s, ForceUnit("X", "rescue_team", area="S1", level=4))  # turntable
    assert "FG144" not in codes(ladder)


def test_fg145_arrival_outside_the_game() -> None:
    late = plus_forces(base(), ForceUnit("X", "doctor", entry="east", arrives=99))
    assert codes(late)["FG145"] == "warning"
    assert "FG145" not in codes(
        plus_forces(base(), ForceUnit("X", "doctor", entry="east", arrives=40))
    )


# -- reach and water ------------------------------------------------------------------------
def test_fg101_beyond_hose_reach() -> None:
    far = with_(base(), house_rules={"hose.max_lengths": 2})
    found = [f for f in check(far) if f.code == "FG101"]
    assert found and all(f.severity == "warning" for f in found)
    assert any(
        "hydrant R0 cannot reach building house within 2 lengths" in f.message for f in found
    )
    assert "FG101" not in codes(base())
    # Open water next to the street brings everything back within reach.
    river = plus_features(far, Feature(F.WATER, "W", points=500, name="river"))
    assert "FG101" not in codes(river)


def test_fg101_no_hose_path_at_all() -> None:
    s = base()
    island = with_(s, areas=(*s.areas, Area("I", BU, rect(100, 100), building="house")))
    found = [f for f in check(island) if f.code == "FG101"]
    assert len(found) == 1 and "no water source can reach building house" in found[0].message


def test_fg102_no_water() -> None:
    dry = with_(base(), features=tuple(f for f in base().features if f.type is not F.HYDRANT))
    assert codes(dry)["FG102"] == "warning"
    failed = with_(base(), mains="failed")
    assert codes(failed)["FG102"] == "warning"
    assert "FG102" not in codes(plus_features(failed, Feature(F.WATER, "W", points=100)))


def test_fg103_unreachable_building_locations() -> None:
    # A three-level tower behind the shop, no stairwell: level 0 by the shop's ground floor,
    # level 1 through the party wall with the shop's first floor, level 2 by nothing (no
    # street or yard beside it for a ladder).
    s = base()
    tower = with_(
        s,
        buildings=(*s.buildings, Building("tower", levels=3)),
        areas=(*s.areas, Area("T", BU, rect(0, 20), building="tower")),
    )
    found = [f for f in check(tower) if f.code == "FG103"]
    assert [(f.area, f.level, f.severity) for f in found] == [("T", 2, "warning")]
    assert "building tower: T level 2 cannot be reached" in found[0].message
    assert "FG103" not in codes(s)
    assert "FG103" not in codes(plus_features(tower, Feature(F.STAIRWELL, "T")))


# -- scenario-wide --------------------------------------------------------------------------
def test_fg150_objectives_naming_unknown_things() -> None:
    for o in (
        Objective("protect", building="nope"),
        Objective("protect", area="nope"),
        Objective("protect"),
        Objective("rescue"),
        Objective("contain", max_destroyed=-1),
        Objective("win"),
    ):
        assert codes(with_(base(), objectives=(o,)))["FG150"] == "error", o
    ok = (Objective("protect", area="H1"), Objective("contain", max_destroyed=0))
    assert "FG150" not in codes(with_(base(), objectives=ok))


def test_fg160_ruleset_and_house_rules() -> None:
    assert codes(with_(base(), ruleset="chess"))["FG160"] == "error"
    assert codes(with_(base(), house_rules={"growth.nonsense": 3}))["FG160"] == "error"
    assert "FG160" not in codes(with_(base(), house_rules={"hose.max_lengths": 12}))


def test_fg161_values_out_of_range() -> None:
    assert codes(with_(base(), turns=0))["FG161"] == "error"
    assert codes(with_(base(), start=Start(fires=(LocationValue("S1", 0, 9),))))["FG161"] == "error"
    assert codes(plus_features(base(), Feature(F.HYDRANT, "R2", pressure=50)))["FG161"] == "error"
    assert (
        codes(with_(base(), buildings=(Building("shop", levels=0), Building("house"))))["FG161"]
        == "error"
    )
    assert "FG161" not in codes(with_(base(), turns=500))


def test_fg199_internal_failure_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(ctx: object) -> list[Finding]:
        raise RuntimeError("boom")

    monkeypatch.setattr(checks_mod, "_CHECKS", [*checks_mod._CHECKS, broken])
    found = check(base())
    assert [f.code for f in found] == ["FG199"]
    assert "broken" in found[0].message and "boom" in found[0].message
    monkeypatch.undo()
    assert "FG199" not in codes(base())


def test_never_raises_on_garbage() -> None:
    s = Scenario(
        areas=(
            Area("a", BU, ((0, 0), (1, 1)), building="x"),
            Area("a", ST, ((0, 0), (10, 10), (10, 0), (0, 10))),
            Area("b", WA, ((float("inf"), 0), (1, 0), (0, 1))),
        ),
        features=(Feature(F.STAIRWELL, "zz"), Feature(F.HYDRANT, "b")),
        start=Start(fires=(LocationValue("b", 7, 9),), rubble=("a",)),
        forces=(ForceUnit("u", "nope", area="b", level=3),),
        objectives=(Objective("protect"),),
        turns=-1,
    )
    found = check(s)
    assert found and "FG199" not in {f.code for f in found}


def test_every_documented_code_is_tested_here() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "checks.md").read_text("utf-8")
    import re

    documented = set(re.findall(r"\bFG1\d\d\b", doc))
    tests = Path(__file__).parent.glob("test_checks*.py")  # FG170: test_checks_background.py
    here = {c for t in tests for c in re.findall(r"\bFG1\d\d\b", t.read_text("utf-8"))}
    assert documented and documented <= here
