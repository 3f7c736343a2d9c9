"""GeoJSON exchange with GIS tools (issue 8): the QGIS-style fixture, exact scale, placing
point features, repairing or refusing bad geometry, the recorded origin, and the CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fireground.cli import main
from fireground.engine.board.model import FeatureType, Geo
from fireground.engine.core.errors import ScenarioError
from fireground.engine.scenario.io import load_scenario
from fireground.geojson import (
    GeoReference,
    dumps_geojson,
    from_geojson,
    georeference,
    load_geojson,
    to_geojson,
)

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "geojson" / "paternoster_27700.geojson"
E0, N0 = 532041.25, 181142.5  # the fixture's south-west corner (British National Grid)


def fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def collection(*features: dict[str, Any], crs: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "FeatureCollection", "features": list(features)}
    if crs:
        out["crs"] = {"type": "name", "properties": {"name": crs}}
    return out


def polygon(ring: list[list[float]], **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": props,
            "geometry": {"type": "Polygon", "coordinates": [[*ring, ring[0]]]}}  # fmt: skip


def point(x: float, y: float, **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": props,
            "geometry": {"type": "Point", "coordinates": [x, y]}}  # fmt: skip


def square(x: float, y: float, side: float) -> list[list[float]]:
    return [[x, y], [x + side, y], [x + side, y + side], [x, y + side]]


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line holding ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def feature_line(text: str, n: int) -> int:
    """Line where feature ``n`` (from 1) starts in ``json.dumps(..., indent=1)`` text."""
    starts = [i for i, line in enumerate(text.splitlines(), 1) if line == "  {"]
    return starts[n - 1]


# -- the QGIS-style fixture ---------------------------------------------------------------


def test_fixture_imports_every_area_building_and_feature() -> None:
    imp = load_geojson(FIXTURE)
    s = imp.scenario
    assert imp.warnings == ()
    assert s.name == "paternoster_blocks"
    assert [(a.id, a.kind.value, a.building) for a in s.areas] == [
        ("S1", "building", "simpkin"),
        ("S2", "building", "simpkin"),
        ("S3", "building", "longman"),
        ("R1", "street", None),
        ("O1", "open", None),
        ("A1", "building", "stationers"),  # no id in the file: generated
        ("W1", "water", None),
    ]
    assert [(b.id, b.levels, b.basement, b.name) for b in s.buildings] == [
        ("simpkin", 4, False, "Simpkin Marshall warehouse"),  # levels 4 and 4.0 agree
        ("longman", 3, True, "Longman's"),
        ("stationers", 2, False, ""),
    ]
    assert s.area("S1").name == "Paper store" and s.area("R1").name == "Paternoster Row"
    placed = [(f.type.value, f.area, f.level) for f in s.features]
    assert placed == [
        ("stairwell", "S1", None),
        ("stairwell", "S3", None),
        ("store", "S2", 0),
        ("hydrant", "R1", None),
        ("water", "W1", None),
        ("occupants", "S3", 2),
        ("occupants", "S3", -1),
        ("entry", "R1", None),
        ("label", "O1", None),
        ("stairwell", "A1", None),
    ]
    water = s.features_of(FeatureType.WATER)[0]
    assert (water.points, water.name) == (1000, "Emergency water supply")
    assert s.features_of(FeatureType.HYDRANT)[0].pressure == 3
    assert georeference(s) == GeoReference((E0, N0), 0.5, "urn:ogc:def:crs:EPSG::27700")


def test_fixture_geometry_is_moved_to_the_origin_and_scaled() -> None:
    s = load_geojson(FIXTURE).scenario
    assert s.bounds() == (0.0, 0.0, 72.0, 50.0)  # 36 m x 25 m at 0.5 m per cm
    assert s.area("S3").polygon == ((40, 30), (60, 30), (60, 44), (50, 50), (40, 50))
    assert s.area("R1").polygon == ((0, 20), (60, 20), (60, 30), (0, 30))


def test_imported_fixture_saves_and_loads(tmp_path: Path) -> None:
    out = tmp_path / "p.fg.yaml"
    assert main(["import-geojson", str(FIXTURE), "--out", str(out)]) == 0
    assert load_scenario(out) == load_geojson(FIXTURE).scenario


def test_fixture_round_trips_and_goes_back_in_place() -> None:
    first = load_geojson(FIXTURE).scenario
    data = to_geojson(first)
    assert data["crs"] == fixture()["crs"]
    # Every polygon comes back at the fixture's own coordinates.
    original = {
        f["properties"]["id"] or "A1": (
            f["geometry"]["coordinates"][0][0]
            if f["geometry"]["type"] == "MultiPolygon"
            else f["geometry"]["coordinates"][0]
        )
        for f in fixture()["features"]
        if f["geometry"]["type"] != "Point"
    }
    exported = {
        f["properties"]["id"]: f["geometry"]["coordinates"][0]
        for f in data["features"]
        if f["geometry"]["type"] == "Polygon"
    }
    assert exported == original
    text = dumps_geojson(data)
    lines = [ln for ln in text.splitlines() if ln.startswith('{"type": "Feature"')]
    assert len(lines) == len(data["features"]) == 17  # one feature per line, as QGIS writes
    again = from_geojson(text, name="other").scenario
    assert again == first  # every area, building, level, feature, name and the origin


def test_cli_import_export_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = tmp_path / "one.fg.yaml", tmp_path / "two.fg.yaml"
    back = tmp_path / "back.geojson"
    assert main(["import-geojson", str(FIXTURE), "--out", str(one)]) == 0
    assert main(["export-geojson", str(one), "--out", str(back)]) == 0
    assert main(["import-geojson", str(back), "--out", str(two)]) == 0
    a, b = load_scenario(one), load_scenario(two)
    assert a.areas == b.areas and a.buildings == b.buildings and a.features == b.features
    assert sorted(a.locations()) == sorted(b.locations())
    assert json.loads(back.read_text())["crs"] == fixture()["crs"]
    out = capsys.readouterr().out
    assert f"{one}: 7 areas, 3 buildings, 10 features from {FIXTURE}" in out


# -- scale ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("metres_per_cm", "side"), [(0.5, 10.0), (0.25, 20.0), (1.0, 5.0)])
def test_a_5m_square_is_10cm_at_the_default_scale(metres_per_cm: float, side: float) -> None:
    data = collection(
        polygon(square(529_317.3, 179_981.7, 5.0), id="B1", kind="open"),
        crs="urn:ogc:def:crs:EPSG::27700",
    )
    s = from_geojson(json.dumps(data), metres_per_cm=metres_per_cm).scenario
    assert s.areas[0].polygon == ((0, 0), (side, 0), (side, side), (0, side))
    assert s.areas[0].shape.area == side * side


def test_plain_coordinates_and_no_crs() -> None:
    data = collection(polygon(square(0, 0, 5), id="R1", kind="street"))
    s = from_geojson(json.dumps(data)).scenario
    assert s.areas[0].polygon == ((0, 0), (10, 0), (10, 10), (0, 10))
    assert georeference(s) == GeoReference((0.0, 0.0), 0.5, None)
    assert "crs" not in to_geojson(s)


def test_degrees_without_a_crs_are_refused() -> None:
    ring = [[-0.1, 51.5], [-0.0999, 51.5], [-0.0999, 51.5001], [-0.1, 51.5001]]
    with pytest.raises(ScenarioError, match="are the coordinates in degrees"):
        from_geojson(json.dumps(collection(polygon(ring, kind="open"))), "m.geojson")


def test_editor_scenario_exports_at_origin_with_points_inside_their_areas() -> None:
    s = load_scenario(REPO / "examples" / "stepney.fg.yaml")
    assert georeference(s) is None
    data = to_geojson(s)
    polys = {f["properties"]["id"]: f for f in data["features"] if "id" in f["properties"]}
    a = s.areas[0]
    assert polys[a.id]["geometry"]["coordinates"][0][0] == [a.polygon[0][0] * 0.5,
                                                            a.polygon[0][1] * 0.5]  # fmt: skip
    points = [f for f in data["features"] if f["geometry"]["type"] == "Point"]
    assert len(points) == len(s.features)
    for f, feat in zip(points, s.features, strict=True):
        x, y = f["geometry"]["coordinates"]
        assert s.area(feat.area).shape.covers(_pt(x / 0.5, y / 0.5)), feat
    spots = [tuple(f["geometry"]["coordinates"]) for f in points]
    same_area = {}
    for spot, feat in zip(spots, s.features, strict=True):
        same_area.setdefault(feat.area, []).append(spot)
    spread = [v for v in same_area.values() if len(v) > 1]
    assert all(len(set(v)) > 1 for v in spread)  # several features in an area are spread


def _pt(x: float, y: float) -> Any:
    from shapely.geometry import Point

    return Point(x, y)


# -- point features ------------------------------------------------------------------------


def test_point_outside_every_area_is_reported_with_its_line() -> None:
    data = fixture()
    text = FIXTURE.read_text().replace("[ 532053.25, 181155.0 ]", "[ 532600.5, 181700.0 ]")
    assert text != FIXTURE.read_text()  # the hydrant moved far away
    n = next(i for i, f in enumerate(data["features"], 1) if f["properties"]["type"] == "hydrant")
    with pytest.raises(ScenarioError) as info:
        from_geojson(text, "m.geojson")
    (d,) = info.value.diagnostics
    assert d.line == line_of(text, '"hydrant"')
    assert str(d) == (
        f"m.geojson:{d.line}:{d.col}: feature {n}: hydrant at (532600.5, 181700) "
        "lies outside every area"
    )


def test_a_points_area_property_breaks_ties_on_a_shared_edge() -> None:
    areas = [polygon(square(0, 0, 5), id="L", kind="open"),
             polygon(square(5, 0, 5), id="R", kind="open")]  # fmt: skip
    edge = point(5, 2.5, type="label", text="on the edge")
    s = from_geojson(json.dumps(collection(*areas, edge))).scenario
    assert s.features[0].area == "L"  # the first area in the file
    edge["properties"]["area"] = "R"
    imp = from_geojson(json.dumps(collection(*areas, edge)))
    assert imp.scenario.features[0].area == "R" and imp.warnings == ()
    moved = point(1, 1, type="label", text="moved in QGIS", area="R")
    imp = from_geojson(json.dumps(collection(*areas, moved)))
    assert imp.scenario.features[0].area == "L"  # the geometry wins over a stale 'area'
    assert "feature 3: the point lies in area 'L', not 'R'" in str(imp.warnings[0])


@pytest.mark.parametrize(
    ("props", "message"),
    [
        ({"type": "hydrnt", "pressure": 3}, "unknown feature type 'hydrnt' (did you mean 'hydrant'?)"),
        ({"pressure": 3}, "a point feature needs a 'type' (stairwell, store, hydrant, water, occupants, entry, label)"),
        ({"type": "hydrant"}, "a hydrant needs 'pressure'"),
        ({"type": "hydrant", "pressure": 40}, "pressure must be 1..20, got 40"),
        ({"type": "store", "material": "coal"}, "unknown material 'coal' (one of oil, petrol, wood)"),
        ({"type": "store", "material": "oil", "level": 4}, "level 4 does not exist in area 'S1' (levels 0..3)"),
        ({"type": "occupants", "count": 2.5}, "count must be a whole number, got 2.5"),
    ],
)  # fmt: skip
def test_bad_point_properties_name_the_feature(props: dict[str, Any], message: str) -> None:
    areas = polygon(square(0, 0, 5), id="S1", kind="building", building="b", levels=4)
    text = json.dumps(collection(areas, point(1, 1, **props)), indent=1)
    with pytest.raises(ScenarioError) as info:
        from_geojson(text, "m.geojson")
    (d,) = info.value.diagnostics
    assert d.message == f"feature 2: {message}"
    assert (d.line, d.col) == (feature_line(text, 2), 3)  # where the feature's '{' is


def test_qgis_number_fields() -> None:
    """QGIS writes integer ids as numbers and real fields as 4.0; text digits also pass."""
    areas = [polygon(square(0, 0, 5), id=12, kind="Building", building="b", levels="3"),
             polygon(square(5, 0, 5), id=13.0, kind="street")]  # fmt: skip
    hydrant = point(6, 1, type="Hydrant ", pressure=3.0)
    s = from_geojson(json.dumps(collection(*areas, hydrant))).scenario
    assert [a.id for a in s.areas] == ["12", "13"] and s.buildings[0].levels == 3
    assert s.features[0].pressure == 3 and s.features[0].area == "13"


def test_unused_properties_are_warned_about_once() -> None:
    areas = [polygon(square(0, 0, 5), kind="open", fid=1, height=11.5),
             polygon(square(5, 0, 5), kind="street", height=3.0, colour="red")]  # fmt: skip
    imp = from_geojson(json.dumps(collection(*areas, point(6, 1, type="hydrant", pressure=3.0,
                                                           name="x"))))  # fmt: skip
    s = imp.scenario
    assert [a.id for a in s.areas] == ["A1", "A2"]
    assert s.features[0].pressure == 3 and s.features[0].name is None
    messages = [w.message for w in imp.warnings]
    assert messages == ["properties not used: colour, height",
                        "feature 3: name not used by a hydrant: ignored"]  # fmt: skip


def test_ids_are_made_valid_generated_and_unique() -> None:
    areas = [polygon(square(0, 0, 5), id="Bay 1", kind="open"),
             polygon(square(5, 0, 5), kind="open"),
             polygon(square(10, 0, 5), id="A1", kind="open")]  # fmt: skip
    imp = from_geojson(json.dumps(collection(*areas)))
    assert [a.id for a in imp.scenario.areas] == ["Bay_1", "A2", "A1"]  # A1 is taken
    assert "feature 1: id 'Bay 1' is not a valid id" in imp.warnings[0].message
    areas[1]["properties"]["id"] = "Bay_1"
    with pytest.raises(ScenarioError, match=r"feature 2: duplicate id 'Bay_1' \(also feature 1\)"):
        from_geojson(json.dumps(collection(*areas)))


# -- geometry ------------------------------------------------------------------------------


def test_bow_tie_is_refused_and_a_spike_is_repaired() -> None:
    bow = [[0, 0], [5, 5], [5, 0], [0, 5]]
    inside = point(1, 2.5, type="label", text="in the refused area: not reported again")
    text = json.dumps(collection(polygon(square(10, 0, 5), kind="open"),
                                 polygon(bow, id="X", kind="open"), inside), indent=1)  # fmt: skip
    with pytest.raises(ScenarioError) as info:
        from_geojson(text, "m.geojson")
    (d,) = info.value.diagnostics
    assert d.message.startswith("feature 2: invalid polygon that cannot be repaired safely")
    assert d.line == feature_line(text, 2)
    spike = [[0, 0], [5, 0], [8, 0], [5, 0], [5, 5], [0, 5]]  # out along an edge and back
    imp = from_geojson(json.dumps(collection(polygon(spike, id="S", kind="open"))))
    assert imp.scenario.areas[0].shape.area == 100.0
    assert imp.scenario.areas[0].shape.is_valid
    assert "feature 1: invalid polygon repaired (make_valid" in imp.warnings[0].message


def test_a_tiny_twist_is_repaired_a_big_one_refused() -> None:
    tiny = [[0, 0], [10, 0], [10, 10], [0, 10], [0.1, 10.1], [0, 10.2]]
    imp = from_geojson(json.dumps(collection(polygon(tiny, kind="open"))))
    assert imp.scenario.areas[0].shape.area == pytest.approx(400.0)  # 10 m square, 20 cm
    big = [[0, 0], [10, 0], [10, 10], [0, 10], [10, 10.5]]  # a 2.4 m² lobe on 52 m²
    with pytest.raises(ScenarioError, match="feature 1: invalid polygon that cannot be"):
        from_geojson(json.dumps(collection(polygon(big, kind="open"))))


def test_multipolygons_holes_and_other_geometry() -> None:
    one = polygon(square(0, 0, 5), id="M", kind="open")
    one["geometry"] = {"type": "MultiPolygon", "coordinates": [one["geometry"]["coordinates"]]}
    holed = polygon(square(5, 0, 5), id="H", kind="open")
    holed["geometry"]["coordinates"].append([[6, 1], [7, 1], [7, 2], [6, 1]])
    line = {"type": "Feature", "properties": {},
            "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}  # fmt: skip
    imp = from_geojson(json.dumps(collection(one, holed, line)))
    assert [a.id for a in imp.scenario.areas] == ["M", "H"]
    assert imp.scenario.area("H").shape.area == 100.0
    assert [w.message for w in imp.warnings] == [
        "feature 2: 1 hole filled in: areas have no holes (draw a courtyard as an area of its own)",
        "feature 3: LineString geometry: skipped",
    ]
    two = dict(one, geometry={"type": "MultiPolygon", "coordinates": [
        [[*square(0, 0, 5), [0, 0]]], [[*square(20, 0, 5), [20, 0]]]]})  # fmt: skip
    with pytest.raises(ScenarioError, match="feature 2: MultiPolygon of 2 parts"):
        from_geojson(json.dumps(collection(holed, two)))


def test_buildings_from_area_properties() -> None:
    areas = [polygon(square(0, 0, 5), id="S1", building="w", levels=3),  # kind inferred
             polygon(square(5, 0, 5), id="S2", kind="building", building="w", levels=5),
             polygon(square(10, 0, 5), id="S3", kind="building"),  # its own building
             polygon(square(15, 0, 5), id="R1", kind="street")]  # fmt: skip
    imp = from_geojson(json.dumps(collection(*areas)))
    s = imp.scenario
    assert [(b.id, b.levels) for b in s.buildings] == [("w", 3), ("S3", 1)]
    assert s.area("S1").kind.value == "building" and s.area("S3").building == "S3"
    assert "feature 2: building 'w' has 5 levels here but 3 in feature 1" in str(imp.warnings)
    areas[3]["properties"]["building"] = "w"
    areas[0]["properties"]["levels"] = 40
    areas[2]["properties"]["kind"] = "bulding"
    in_refused = point(12, 2, type="stairwell")  # inside feature 3: not reported again
    with pytest.raises(ScenarioError) as info:
        from_geojson(json.dumps(collection(*areas, in_refused)))
    assert [d.message for d in info.value.diagnostics] == [
        "feature 1: levels must be 1..20, got 40",
        "feature 3: unknown area kind 'bulding' (did you mean 'building'?)",
        "feature 4: a street area cannot belong to building 'w'",
    ]


def test_old_description_line_is_still_read() -> None:
    """Files imported before the ``geo`` key kept the reference as a description line."""
    line = "[geojson origin=532100,181200.125 metres_per_cm=0.25 crs=urn:ogc:def:crs:EPSG::27700]"
    ref = GeoReference((532100.0, 181200.125), 0.25, "urn:ogc:def:crs:EPSG::27700")
    s = replace(load_geojson(FIXTURE).scenario, geo=None)
    s2 = replace(s, description="Incendiaries on the publishers' quarter.\n" + line)
    assert georeference(s2) == ref
    assert georeference(replace(s, description="no tag here")) is None
    assert georeference(replace(s2, geo=Geo((1.0, 2.0), 1.0))) == Geo((1.0, 2.0), 1.0)


# -- command line --------------------------------------------------------------------------


def test_cli_exit_codes_and_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.fg.yaml"
    bad = tmp_path / "bad.geojson"
    text = FIXTURE.read_text().replace("[ 532053.25, 181155.0 ]", "[ 0.0, 0.0 ]")
    bad.write_text(text)
    assert main(["import-geojson", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    n = [f["properties"]["type"] for f in fixture()["features"]].index("hydrant") + 1
    line = line_of(text, '"hydrant"')
    assert f"{bad}:{line}:1: feature {n}: hydrant at (0, 0) lies outside every area" in err
    assert "Traceback" not in err and not out.exists()
    assert main(["import-geojson", str(FIXTURE), "--out", str(out), "--metres-per-cm", "0"]) == 2
    assert main(["import-geojson", str(tmp_path / "none.geojson"), "--out", str(out)]) == 2
    bad.write_text('{"type": "FeatureCollection", "features": [}')
    assert main(["import-geojson", str(bad), "--out", str(out)]) == 2
    assert f"{bad}:1:" in capsys.readouterr().err
    assert main(["export-geojson", str(tmp_path / "none.fg.yaml"), "--out", str(bad)]) == 2
    assert main(["import-geojson", str(FIXTURE), "--out", str(out)]) == 0
    assert main(["export-geojson", str(out), "--out", str(tmp_path / "o.geojson")]) == 0


def test_cli_never_writes_over_its_own_input_and_keeps_a_replaced_geojson(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scen = tmp_path / "s.fg.yaml"
    assert main(["import-geojson", str(FIXTURE), "--out", str(scen)]) == 0
    before = scen.read_bytes()
    assert main(["export-geojson", str(scen), "--out", str(scen)]) == 2
    assert "--out is the input file" in capsys.readouterr().err
    assert scen.read_bytes() == before
    gj = tmp_path / "s.geojson"
    gj.write_text(FIXTURE.read_text())
    assert main(["import-geojson", str(gj), "--out", str(gj)]) == 2
    assert gj.read_text() == FIXTURE.read_text()
    assert main(["export-geojson", str(scen), "--out", str(gj)]) == 0
    assert (tmp_path / "s.geojson.bak").read_text() == FIXTURE.read_text()
    # an absurd scale gives infinite coordinates: refused, not written as non-JSON
    out = tmp_path / "huge.geojson"
    assert main(["export-geojson", str(scen), "--out", str(out), "--metres-per-cm", "1e308"]) == 2
    err = capsys.readouterr().err
    assert "too large to write" in err and "Traceback" not in err and not out.exists()


HOSTILE = [
    ('{"type": "FeatureCollection", "features": [' + "[" * 5000 + "]" * 5000 + "]}",
     "h.geojson:1:1: not GeoJSON: nested too deeply"),
    ('{"type": "FeatureCollection", "features": [}', "h.geojson:1:44: not valid JSON"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": [], '
     '"geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1e308, 0], [1e308, 1e308]]]}}]}',
     "h.geojson:1:1: coordinates too large"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": '
     '{"kind": ["x"]}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [5, 0], '
     '[5, 5]]]}}]}', "feature 1: unknown area kind"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
     '{"type": "Polygon", "coordinates": [[]]}}]}',
     "feature 1: a polygon needs at least 3 different corners, got 0"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
     '{"type": "Polygon", "coordinates": [[[0, 0], [5, 0], [5, 5]]]}}, {"type": "Feature", '
     '"properties": {"type": "occupants", "count": 1e300}, "geometry": {"type": "Point", '
     '"coordinates": [3, 1]}}]}', "feature 2: count must be 1..1000000, got 1e+300"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
     '{"type": "Polygon", "coordinates": [[[0, 0], [5, 0], [5, 5]]]}}, {"type": "Feature", '
     '"properties": {"type": "entry", "name": ""}, "geometry": {"type": "Point", '
     '"coordinates": [true, 1]}}]}', "feature 2: unreadable coordinates"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
     '{"type": "Polygon", "coordinates": [[[0, 0], [5, 0], [5, 5]]]}}, {"type": "Feature", '
     '"properties": {"type": "entry", "name": ""}, "geometry": {"type": "Point", '
     '"coordinates": [3, 1]}}]}', "feature 2: an entry needs 'name'"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
     '{"type": "Polygon", "coordinates": [[[0, 0], [5, 0], [5, 5]]]}}, {"type": "Feature", '
     '"properties": {"type": "entry", "name": "a"}, "geometry": {"type": "Point", '
     '"coordinates": [3, 1]}}, {"type": "Feature", "properties": {"type": "entry", "name": '
     '"a"}, "geometry": {"type": "Point", "coordinates": [3, 1]}}]}',
     "feature 3: duplicate entry name 'a'"),
    ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
     '{"type": "MultiPoint", "coordinates": [[0, 0], [1, 1]]}}]}',
     "feature 1: a MultiPoint of several points"),
    ('{"type": "FeatureCollection", "features": [7]}', "feature 1: not a GeoJSON Feature"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), HOSTILE)
def test_hostile_files_give_positioned_errors(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        from_geojson(text, "h.geojson")
    assert message in str(info.value)
    assert all(str(d).startswith("h.geojson:") for d in info.value.diagnostics)


def test_odd_but_usable_input_is_accepted_with_warnings() -> None:
    text = (
        '{"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": ["x"]}},'
        ' "features": [{"type": "Feature", "properties": {"kind": "open", "basement": true,'
        ' "levels": 2, "name": ""}, "geometry": {"type": "MultiPolygon", "coordinates":'
        ' [[[[0, 0], [5, 0], [5, 5]]]]}}, {"type": "Feature", "properties": {"type":'
        ' "stairwell"}, "geometry": {"type": "MultiPoint", "coordinates": [[3, 1]]}},'
        ' {"type": "Feature", "properties": {}, "geometry": null}]}'
    )
    imp = from_geojson(text, "h.geojson")
    assert [w.message for w in imp.warnings] == [
        'crs name ["x"] not understood: ignored',
        "feature 1: levels, basement not used by an open area: ignored",
        "feature 3: no geometry: skipped",
    ]
    s = imp.scenario
    assert s.areas[0].name == "" and s.features[0].area == "A1"
    assert georeference(s) == GeoReference((0.0, 0.0), 0.5, None)


@pytest.mark.parametrize("name", ["paternoster", "stepney", "surrey_docks"])
def test_every_example_map_round_trips(name: str) -> None:
    s = load_scenario(REPO / "examples" / f"{name}.fg.yaml")
    imp = from_geojson(dumps_geojson(to_geojson(s)), name=s.name)
    back = imp.scenario
    minx, miny = s.bounds()[:2]
    assert [(a.id, a.kind, a.building, a.name) for a in back.areas] == [
        (a.id, a.kind, a.building, a.name) for a in s.areas
    ]
    for a, b in zip(s.areas, back.areas, strict=True):
        moved = [c for x, y in a.polygon for c in (x - minx, y - miny)]
        assert [c for p in b.polygon for c in p] == pytest.approx(moved, abs=1e-4)
    assert sorted(back.buildings, key=lambda b: b.id) == sorted(s.buildings, key=lambda b: b.id)
    assert back.features == s.features  # each point landed back in its own area
    assert sorted(back.locations()) == sorted(s.locations())
    assert imp.warnings == ()


def test_keys_on_the_wrong_kind_of_feature_are_warned_about() -> None:
    area = polygon(square(0, 0, 5), id="Y", kind="open", material="wood", count=3)
    label = point(1, 1, type="label", text="t", id="P7", kind="street", levels=2)
    imp = from_geojson(json.dumps(collection(area, label)))
    assert [w.message for w in imp.warnings] == [
        "feature 1: material, count not used by an area: ignored",
        "feature 2: kind, levels not used by a point feature: ignored",
    ]


def test_longitude_latitude_goes_back_to_degrees() -> None:
    crs = "urn:ogc:def:crs:OGC:1.3:CRS84"
    lon, lat, d = -0.0984, 51.5138, 0.0001  # by St Paul's; 0.0001 deg is ~7 m by ~11 m
    west = [[lon, lat], [lon + d, lat], [lon + d, lat + d], [lon, lat + d]]
    east = [[lon + d, lat], [lon + 2 * d, lat], [lon + 2 * d, lat + d], [lon + d, lat + d]]
    data = collection(polygon(west, id="W", kind="open"), polygon(east, id="E", kind="street"),
                      point(lon + 1.5 * d, lat + 0.5 * d, type="hydrant", pressure=2),
                      crs=crs)  # fmt: skip
    first = from_geojson(json.dumps(data)).scenario
    a = first.areas[0]
    assert [x.id for x in first.areas] == ["W", "E"]
    width = a.polygon[1][0] - a.polygon[0][0]
    assert width == pytest.approx(d * 111_320 * 0.62237 / 0.5, rel=1e-4)  # cos 51.51 deg
    assert a.polygon[2][1] == pytest.approx(d * 110_574 / 0.5, rel=1e-9)
    assert first.features[0].area == "E"
    out = to_geojson(first)
    assert out["crs"]["properties"]["name"] == crs
    ring = out["features"][0]["geometry"]["coordinates"][0][:-1]
    assert [c for p in ring for c in p] == pytest.approx([c for p in west for c in p], abs=1e-9)
    assert from_geojson(dumps_geojson(out)).scenario == first
