"""Pure edits on the scenario (no window): split, merge, brushes, cascades, bombs."""

from __future__ import annotations

from editor_helpers import sq
from shapely.geometry import Polygon

from fireground.editor import geometry, ops, ops_start
from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import Area, AreaKind, LocationValue, Scenario


def test_split_footprint_into_cells_covers_it(small: Scenario) -> None:
    big = Area("B1", AreaKind.BUILDING, sq(0, 30, 40, 20), "house")
    s = ops.add_areas(small, [big])
    out = ops.split_area_cells(s, "B1")
    parts = [a for a in out.areas if a.building == "house" and a.id not in ("H1", "H2")]
    assert len(parts) == 8  # 40 x 20 cm at 10 cm cells
    assert abs(sum(a.shape.area for a in parts) - 800) < 1e-6
    assert "B1" in out.area_by_id  # the first part keeps the id
    # The cells are neighbours of each other in the engine's graph.
    g = build_graph(out)
    assert len(g.area_neighbours("B1")) >= 2


def test_split_l_shape_is_clipped_to_the_footprint() -> None:
    l_shape = ((0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20))
    parts = geometry.split_into_cells(l_shape, 10)
    assert len(parts) == 3
    assert abs(sum(Polygon(p).area for p in parts) - 300) < 1e-6


def test_split_along_a_line_and_merge_back(small: Scenario) -> None:
    out = ops.split_area_line(small, "R1", [(5, -1), (5, 11)])
    assert len(out.areas) == 4
    new = next(a.id for a in out.areas if a.id not in small.area_by_id)
    merged = ops.merge_areas(out, ["R1", new])
    assert merged.area("R1").shape.equals(small.area("R1").shape)
    assert len(merged.areas) == 3


def test_merge_refuses_areas_that_do_not_touch(small: Scenario) -> None:
    s = ops.add_areas(small, [Area("X", AreaKind.OPEN, sq(100, 100))])
    try:
        ops.merge_areas(s, ["H1", "X"])
    except ValueError as exc:
        assert "touch" in str(exc)
    else:
        raise AssertionError("merging separate areas must fail")


def test_remove_area_drops_what_refers_to_it(small: Scenario) -> None:
    s = ops_start.paint_start(small, "fire", "H1", 1, 3)
    out = ops.remove_areas(s, ["H1"])
    assert "H1" not in out.area_by_id
    assert all(f.area != "H1" for f in out.features)
    assert out.start.fires == ()


def test_brushes_set_and_clear(small: Scenario) -> None:
    s = ops_start.paint_start(small, "fire", "H1", 1, 4)
    assert s.start.fires == (LocationValue("H1", 1, 4),)
    s = ops_start.paint_start(s, "embers", "H1", 1, 1)  # embers replace the fire there
    assert s.start.fires == () and s.start.embers[0].location == ("H1", 1)
    s = ops_start.paint_start(s, "rubble", "R1", 0, 1)
    assert s.start.rubble == ("R1",)
    s = ops_start.paint_start(s, "rubble", "R1", 0, None)
    assert s.start.rubble == ()


def test_snap_prefers_vertices_then_edges_then_grid(small: Scenario) -> None:
    idx = geometry.SnapIndex(small.areas)
    v = geometry.snap((10.4, 20.3), idx, tolerance=1, grid=10)
    assert v.kind is geometry.SnapKind.VERTEX and v.point == (10, 20)
    e = geometry.snap((15.2, 20.4), idx, tolerance=1, grid=10)
    assert e.kind is geometry.SnapKind.EDGE and e.point == (15.2, 20)
    g = geometry.snap((44.1, 51), idx, tolerance=1, grid=10)
    assert g.kind is geometry.SnapKind.GRID and g.point == (40, 50)


def test_drop_bombs_is_reproducible_and_changes_the_start(small: Scenario) -> None:
    from fireground.editor.games.blitz.bombs import drop_bombs

    a = drop_bombs(small, 6, seed=3)
    b = drop_bombs(small, 6, seed=3)
    assert a == b
    st = a.start
    assert st.fires or st.damage or st.rubble or st.craters


def test_typed_points_round_trip() -> None:
    pts = geometry.parse_points("0, 0; 10,0; 10, 7.5")
    assert pts == ((0, 0), (10, 0), (10, 7.5))
    assert geometry.parse_points(geometry.format_points(pts)) == pts
