"""The ``geo`` format extension: where an imported map lies in the world.

GeoJSON import records it, export reads it, the loader validates it with FILE:LINE:COL, a
file without it is written exactly as before, and a file written before the key existed
(with the reference as a ``[geojson …]`` description line) still exports in place.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fireground.cli import main
from fireground.engine.board.model import Geo
from fireground.engine.core.errors import ScenarioError
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.io import load_scenario, loads_scenario
from fireground.geojson import dumps_geojson, from_geojson, load_geojson, to_geojson

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "geojson"
FIXTURE = FIXTURES / "paternoster_27700.geojson"
#: The fixture imported by an earlier version: the reference is a description line.
OLD_STYLE = FIXTURES / "paternoster_old_description.fg.yaml"
CRS = "urn:ogc:def:crs:EPSG::27700"
E0, N0 = 532041.25, 181142.5  # the fixture's south-west corner
HEAD = "fireground: 1\nruleset: blitz\nname: geo\n"


def polygons(data: dict[str, Any]) -> dict[str, list[list[float]]]:
    """Area id -> outer ring, for the Polygon (or one-part MultiPolygon) features."""
    out = {}
    for i, f in enumerate(data["features"]):
        g = f["geometry"]
        if g["type"] == "Point":
            continue
        ring = g["coordinates"][0][0] if g["type"] == "MultiPolygon" else g["coordinates"][0]
        out[f["properties"].get("id") or f"#{i}"] = ring
    return out


# -- import writes it, export reads it -----------------------------------------------------


def test_import_records_geo_not_a_description_line(tmp_path: Path) -> None:
    s = load_geojson(FIXTURE).scenario
    assert s.geo == Geo((E0, N0), 0.5, CRS)
    assert s.description == ""
    out = tmp_path / "p.fg.yaml"
    assert main(["import-geojson", str(FIXTURE), "--out", str(out), "--metres-per-cm", "0.25"]) == 0
    text = out.read_text()
    assert "[geojson" not in text and "description" not in text
    assert f'geo: {{origin: [{E0}, {N0}], metres_per_cm: 0.25, crs: "{CRS}"}}' in text


def test_geo_round_trips_through_the_file_byte_for_byte(tmp_path: Path) -> None:
    s = load_geojson(FIXTURE).scenario
    text = dump_scenario(s)
    again = loads_scenario(text)
    assert again == s and again.geo == s.geo
    assert dump_scenario(again) == text
    assert to_geojson(again) == to_geojson(s)


def test_import_save_load_export_puts_the_map_back_in_place(tmp_path: Path) -> None:
    one, back = tmp_path / "one.fg.yaml", tmp_path / "back.geojson"
    assert main(["import-geojson", str(FIXTURE), "--out", str(one)]) == 0
    assert main(["export-geojson", str(one), "--out", str(back)]) == 0
    exported = json.loads(back.read_text())
    original = json.loads(FIXTURE.read_text())
    assert exported["crs"] == original["crs"]
    want = polygons(original)
    want["A1"] = want.pop(next(k for k in want if k.startswith("#")))  # the generated id
    assert polygons(exported) == want


@pytest.mark.parametrize(
    ("geo", "corner"),
    [
        (Geo((100.0, 200.0), 0.5, None), [100.0, 200.0]),
        (Geo((100.0, 200.0), 2.0, "EPSG:27700"), [100.0, 200.0]),
        (Geo((-50.5, 0.25), 1.0, None), [-50.5, 0.25]),
    ],
)
def test_export_uses_the_geo_key(geo: Geo, corner: list[float]) -> None:
    ring = [[0, 0], [10, 0], [10, 10], [0, 10]]
    base = from_geojson(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "R1", "kind": "street"},
         "geometry": {"type": "Polygon", "coordinates": [[*ring, ring[0]]]}}]})).scenario  # fmt: skip
    s = loads_scenario(dump_scenario(replace(base, geo=geo)))
    data = to_geojson(s)
    first = data["features"][0]["geometry"]["coordinates"][0]
    k = geo.metres_per_cm
    assert first[0] == corner
    assert first[2] == [corner[0] + 20 * k, corner[1] + 20 * k]  # 10 m = 20 cm at 0.5
    assert data.get("crs", {}).get("properties", {}).get("name") == geo.crs


def test_longitude_latitude_origin_survives_the_file() -> None:
    lon, lat, d = -0.0984, 51.5138, 0.0001
    ring = [[lon, lat], [lon + d, lat], [lon + d, lat + d], [lon, lat + d], [lon, lat]]
    data = {"type": "FeatureCollection",
            "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}},
            "features": [{"type": "Feature", "properties": {"id": "Y", "kind": "open"},
                          "geometry": {"type": "Polygon", "coordinates": [ring]}}]}  # fmt: skip
    s = from_geojson(json.dumps(data)).scenario
    assert s.geo is not None and s.geo.origin == (lon, lat)
    again = loads_scenario(dump_scenario(s))
    assert again.geo == s.geo
    back = to_geojson(again)["features"][0]["geometry"]["coordinates"][0]
    flat = [c for p in ring for c in p]
    assert [c for p in back for c in p] == pytest.approx(flat, abs=1e-9)


# -- absent by default ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["paternoster", "stepney", "surrey_docks"])
def test_files_without_geo_are_written_as_before(name: str) -> None:
    s = load_scenario(REPO / "examples" / f"{name}.fg.yaml")
    assert s.geo is None
    text = dump_scenario(s)
    assert "\ngeo:" not in text
    assert (
        dump_scenario(replace(s, geo=Geo()))
        == text + "\ngeo: {origin: [0, 0], metres_per_cm: 0.5}\n"
    )


# -- files written before the key ----------------------------------------------------------


def test_old_description_line_still_exports_in_place(tmp_path: Path) -> None:
    old = load_scenario(OLD_STYLE)
    assert old.geo is None and "[geojson origin=" in old.description
    new = load_geojson(FIXTURE).scenario
    assert to_geojson(old) == to_geojson(new)
    back = tmp_path / "back.geojson"
    assert main(["export-geojson", str(OLD_STYLE), "--out", str(back)]) == 0
    assert back.read_text() == dumps_geojson(to_geojson(new))


def test_old_single_line_description_is_read() -> None:
    """Exactly what the import used to write: the line as the whole, quoted description."""
    line = f"[geojson origin={E0},{N0} metres_per_cm=0.5 crs={CRS}]"
    new = load_geojson(FIXTURE).scenario
    text = dump_scenario(replace(new, geo=None, description=line))
    assert f'description: "{line}"' in text
    assert to_geojson(loads_scenario(text)) == to_geojson(new)


def test_geo_key_wins_over_an_old_description_line() -> None:
    new = load_geojson(FIXTURE).scenario
    both = replace(new, description="[geojson origin=0,0 metres_per_cm=9]")
    assert to_geojson(both) == to_geojson(new)


# -- validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "culprit", "message"),
    [
        ("{origin: [1]}", "[1]", "a point is [x, y], got 1 numbers"),
        ("{origin: [1, 2, 3]}", "[1, 2, 3]", "a point is [x, y], got 3 numbers"),
        ("{origin: [a, 2]}", "a,", "origin: expected a number, got 'a'"),
        ("{metres_per_cm: 0}", "0}", "metres_per_cm must be more than 0, got 0"),
        ("{metres_per_cm: -0.5}", "-0.5", "metres_per_cm must be more than 0, got -0.5"),
        ("{metres_per_cm: .inf}", ".inf", "'.inf' is not a finite number"),
        ("{crs: ''}", "''", "crs must not be empty"),
        ("{crs: 27700}", "27700", "crs: expected text, got 27700"),
        ("{orign: [0, 0]}", "orign", "unknown key 'orign' (did you mean 'origin'?)"),
        ("[0, 0]", "[0, 0]", "geo: expected a mapping of keys, got a list"),
    ],
)
def test_bad_geo_is_reported_with_its_place(value: str, culprit: str, message: str) -> None:
    line = "geo: " + value
    with pytest.raises(ScenarioError) as err:
        loads_scenario(HEAD + line + "\n", "map.fg.yaml")
    col = line.index(culprit) + 1
    assert str(err.value).startswith(f"map.fg.yaml:4:{col}: {message}"), str(err.value)


def test_bad_geo_in_a_file_exits_2_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.fg.yaml"
    bad.write_text(HEAD + "geo:\n  origin: [0, 0]\n  metres_per_cm: 0\n")
    assert main(["export-geojson", str(bad), "--out", str(tmp_path / "x.geojson")]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:6:18: metres_per_cm must be more than 0, got 0" in err
    assert "Traceback" not in err
