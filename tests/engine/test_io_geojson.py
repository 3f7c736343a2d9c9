"""GeoJSON import/export: QGIS-style input, exact scale, round trips, refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fireground.cli import main
from fireground.engine.core.errors import ScenarioError
from fireground.engine.scenario.io import load_scenario
from fireground.geojson import from_geojson, load_geojson, to_geojson

REPO = Path(__file__).resolve().parents[2]
E0, N0 = 532_100.0, 181_200.0  # British National Grid metres, near St Paul's


def square(x: float, y: float, size: float = 5.0) -> list[list[float]]:
    return [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]]


def qgis_collection() -> dict[str, Any]:
    """What QGIS writes for a layer in EPSG:27700: MultiPolygons, nulls for empty fields."""

    def poly(fid: int, ring: list[list[float]], **props: Any) -> dict[str, Any]:
        base = {
            "fid": fid,
            "id": None,
            "kind": None,
            "building": None,
            "levels": None,
            "name": None,
        }
        return {"type": "Feature", "properties": {**base, **props},
                "geometry": {"type": "MultiPolygon", "coordinates": [[ring]]}}  # fmt: skip

    def point(fid: int, x: float, y: float, **props: Any) -> dict[str, Any]:
        base = {"fid": fid, "type": None, "level": None, "material": None, "pressure": None,
                "points": None, "count": None, "name": None, "text": None}  # fmt: skip
        return {"type": "Feature", "properties": {**base, **props},
                "geometry": {"type": "Point", "coordinates": [x, y]}}  # fmt: skip

    return {
        "type": "FeatureCollection",
        "name": "paternoster_sketch",
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::27700"}},
        "features": [
            poly(
                1,
                square(E0, N0),
                id="S1",
                kind="building",
                building="simpkin",
                levels=4,
                name="front",
            ),
            poly(2, square(E0 + 5, N0), id="S2", kind="building", building="simpkin", levels=4),
            poly(3, square(E0, N0 - 5, 10), id="R1", kind="street"),
            poly(4, square(E0 + 10, N0)),  # no id, no kind: a generated street id
            point(5, E0 + 2.5, N0 + 2.5, type="stairwell"),
            point(6, E0 + 7.5, N0 + 1, type="store", level=3, material="wood"),
            point(7, E0 + 1, N0 - 1, type="hydrant", pressure=3),
            point(8, E0 + 9, N0 - 4, type="entry", name="from Cheapside"),
        ],
    }


def test_qgis_style_file_imports(tmp_path: Path) -> None:
    p = tmp_path / "sketch.geojson"
    p.write_text(json.dumps(qgis_collection(), indent=2))
    imp = load_geojson(p)
    s = imp.scenario
    assert s.name == "paternoster_sketch"
    assert [a.id for a in s.areas] == ["S1", "S2", "R1", "A1"]
    assert [a.kind.value for a in s.areas] == ["building", "building", "street", "street"]
    assert [(b.id, b.levels) for b in s.buildings] == [("simpkin", 4)]
    assert s.areas[0].name == "front"
    # moved to the origin and scaled: 5 m -> 10 cm at the default 0.5 m per cm
    assert s.areas[0].polygon == ((0, 10), (10, 10), (10, 20), (0, 20))
    assert s.areas[2].polygon == ((0, 0), (20, 0), (20, 20), (0, 20))
    where = {(f.type.value, f.area) for f in s.features}
    assert where == {("stairwell", "S1"), ("store", "S2"), ("hydrant", "R1"), ("entry", "R1")}
    store = next(f for f in s.features if f.type.value == "store")
    assert (store.level, store.material and store.material.value) == (3, "wood")
    assert imp.warnings == ()


@pytest.mark.parametrize(("metres_per_cm", "side_cm"), [(0.5, 10.0), (1.0, 5.0), (0.25, 20.0)])
def test_scale_is_exact(metres_per_cm: float, side_cm: float) -> None:
    text = json.dumps(qgis_collection())
    s = from_geojson(text, metres_per_cm=metres_per_cm).scenario
    xs = [x for x, _ in s.areas[0].polygon]
    assert max(xs) - min(xs) == side_cm
    assert s.areas[0].shape.area == side_cm**2


def test_import_export_import_keeps_everything() -> None:
    first = from_geojson(json.dumps(qgis_collection())).scenario
    again = from_geojson(json.dumps(to_geojson(first))).scenario
    assert again == first


def test_example_exports_and_comes_back() -> None:
    s = load_scenario(REPO / "examples" / "stepney.fg.yaml")
    data = to_geojson(s)
    polys = [f for f in data["features"] if f["geometry"]["type"] == "Polygon"]
    points = [f for f in data["features"] if f["geometry"]["type"] == "Point"]
    assert len(polys) == len(s.areas) and len(points) == len(s.features)
    ring = polys[0]["geometry"]["coordinates"][0]
    assert ring[0] == ring[-1]  # GeoJSON rings are closed
    assert ring[0] == [s.areas[0].polygon[0][0] * 0.5, s.areas[0].polygon[0][1] * 0.5]
    back = from_geojson(json.dumps(data)).scenario
    assert [a.id for a in back.areas] == [a.id for a in s.areas]
    assert sorted(back.buildings, key=str) == sorted(s.buildings, key=str)
    assert back.features == s.features
    minx, miny = s.bounds()[:2]
    moved = [tuple((x - minx, y - miny) for x, y in a.polygon) for a in s.areas]
    assert [a.polygon for a in back.areas] == moved


def test_point_outside_every_area_is_reported() -> None:
    data = qgis_collection()
    data["features"][6]["geometry"]["coordinates"] = [E0 + 500, N0 + 500]
    text = json.dumps(data, indent=1)
    with pytest.raises(ScenarioError) as info:
        from_geojson(text, "m.geojson")
    (d,) = info.value.diagnostics
    assert d.line > 1 and "feature 7: hydrant at (532600, 181700) lies outside every area" in str(d)
    assert str(d).startswith(f"m.geojson:{d.line}:{d.col}: ")


def test_bad_geometry_is_repaired_or_refused() -> None:
    data = qgis_collection()
    # a spike that doubles back: make_valid repairs it into one polygon
    ring = square(E0 + 10, N0)
    ring[2:2] = [[E0 + 18, N0], [E0 + 15, N0]]  # out along the edge and straight back
    data["features"][3]["geometry"]["coordinates"] = [[ring]]
    imp = from_geojson(json.dumps(data))
    assert any("repaired" in str(w) for w in imp.warnings)
    # a bow-tie becomes two triangles: not safe to guess which area is meant
    bow = [[E0, N0], [E0 + 5, N0 + 5], [E0 + 5, N0], [E0, N0 + 5], [E0, N0]]
    data["features"][0]["geometry"]["coordinates"] = [[bow]]
    with pytest.raises(ScenarioError, match="feature 1: invalid polygon that cannot be repaired"):
        from_geojson(json.dumps(data))


def test_bad_properties_are_reported_with_the_feature() -> None:
    data = qgis_collection()
    data["features"][0]["properties"]["levels"] = 40
    data["features"][6]["properties"]["type"] = "hydrnt"
    with pytest.raises(ScenarioError) as info:
        from_geojson(json.dumps(data), "m.geojson")
    text = str(info.value)
    assert "feature 1: levels must be 1..20" in text
    assert "feature 7: unknown feature type 'hydrnt'" in text


def test_longitude_latitude_is_projected() -> None:
    data = {"type": "FeatureCollection",
            "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}},
            "features": [{"type": "Feature", "properties": {"id": "R1", "kind": "street"},
                          "geometry": {"type": "Polygon", "coordinates": [[
                              [-0.1, 51.5], [-0.09993, 51.5], [-0.09993, 51.50005],
                              [-0.1, 51.50005], [-0.1, 51.5]]]}}]}  # fmt: skip
    imp = from_geojson(json.dumps(data))
    xs = [x for x, _ in imp.scenario.areas[0].polygon]
    ys = [y for _, y in imp.scenario.areas[0].polygon]
    assert max(xs) == pytest.approx(9.7, abs=0.1)  # 0.00007 deg of longitude ~ 4.85 m
    assert max(ys) == pytest.approx(11.06, abs=0.05)  # 0.00005 deg of latitude ~ 5.53 m
    assert any("longitude/latitude" in str(w) for w in imp.warnings)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type": "Feature"}', "not a GeoJSON FeatureCollection"),
        ('{"type": "FeatureCollection", "features": []}', "no Polygon features"),
        ('[1, 2]', "not a GeoJSON FeatureCollection"),
        ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
         '{"type": "Polygon", "coordinates": [[["a", 0], [1, 0], [1, 1]]]}}]}',
         "feature 1: unreadable coordinates"),
        ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
         '{"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1]]], '
         '[[[5, 0], [6, 0], [6, 1]]]]}}]}', "MultiPolygon of 2 parts"),
        ('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": '
         '{"type": "Polygon", "coordinates": [[[0, 0], [NaN, 0], [1, 1]]]}}]}', "feature 1: unreadable coordinates"),
    ],
)  # fmt: skip
def test_refusals(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        from_geojson(text, "m.geojson")


def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gj = tmp_path / "in.geojson"
    gj.write_text(json.dumps(qgis_collection()))
    out = tmp_path / "s.fg.yaml"
    assert main(["import-geojson", str(gj), "--out", str(out), "--metres-per-cm", "0.5"]) == 0
    assert "4 areas, 1 building, 4 features" in capsys.readouterr().out
    assert main(["check", str(out)]) in (0, 1)  # loads; checks may warn about the sketch
    capsys.readouterr()
    back = tmp_path / "back.geojson"
    assert main(["export-geojson", str(out), "--out", str(back)]) == 0
    assert len(json.loads(back.read_text())["features"]) == 8
    assert main(["import-geojson", str(gj), "--out", str(out), "--metres-per-cm", "0"]) == 2
    bad = tmp_path / "bad.geojson"
    bad.write_text('{"type": "FeatureCollection", "features": 3}')
    assert main(["import-geojson", str(bad), "--out", str(tmp_path / "x.fg.yaml")]) == 2
    assert f"{bad}:1:1: a FeatureCollection needs a 'features' list" in capsys.readouterr().err
