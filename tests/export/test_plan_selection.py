"""Printing part of the map: --levels, --buildings, per-building sheets of upper floors,
grids fitted to their content, bookmarks, page labels and the assembly guide's page
numbers; terrain-only plans unless --with-start."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import shapely
from export_scenarios import small_scenario, square
from pypdf import PdfReader

from fireground.engine.board.model import Area, AreaKind, Building, Scenario
from fireground.engine.core.errors import UsageError
from fireground.engine.scenario.io import load_scenario
from fireground.export.layout import CM
from fireground.export.pack import export_pack
from fireground.export.plans import write_plans
from fireground.export.plansel import fit_grid, plan_levels
from fireground.export.plansheet import level_extent

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def paternoster() -> Scenario:
    return load_scenario(EXAMPLES / "paternoster.fg.yaml")


def _pages(path: Path) -> int:
    return len(PdfReader(path).pages)


def test_one_level_or_some_buildings_print_few_pages(paternoster, tmp_path: Path) -> None:
    whole = write_plans(paternoster, tmp_path / "all.pdf")
    ground = write_plans(paternoster, tmp_path / "g.pdf", levels=[0])
    some = write_plans(paternoster, tmp_path / "b.pdf", buildings=["simpkin", "longmans"])
    both = write_plans(paternoster, tmp_path / "gb.pdf", levels=[0], buildings=["simpkin"])
    n_all, n_ground, n_some = _pages(whole), _pages(ground), _pages(some)
    assert n_ground <= 60  # the target for Paternoster Row's ground level
    assert n_some < n_all / 3  # two of fourteen buildings
    assert _pages(both) < n_ground / 4
    assert n_all < 231  # what tiling every level as a full-size map took
    # only the chosen level is in the file
    texts = [p.extract_text() for p in PdfReader(ground).pages]
    assert not any("Level 1" in t for t in texts)


def test_pages_are_reported_before_writing(paternoster, tmp_path: Path) -> None:
    heard: list[str] = []
    path = write_plans(paternoster, tmp_path / "p.pdf", levels=[0, 3], report=heard.append)
    (line,) = heard
    counts = [int(n) for n in re.findall(r": (\d+)", line.split("(", 1)[1])]
    assert sum(counts) == _pages(path)
    assert f"plans: {_pages(path)} A4 pages" in line


def test_upper_floors_are_cut_building_by_building(paternoster) -> None:
    (plan,) = plan_levels(paternoster, "a4", [3], pack=False)
    assert {g.title for g in plan.groups} == {
        b.name for b in paternoster.buildings if 3 in b.level_range
    }
    # a building's floor takes at most a 2 x 2 block of sheets here (30 x 30 cm buildings)
    for g in plan.groups:
        if "Cathedral" not in g.title:
            assert 1 <= len(g.keep) <= 4
    # sheets are named L3.1, L3.2, ... through the level
    labels = [g.label(c, r) for g in plan.groups for c, r in g.keep]
    assert labels == [f"L3.{i}" for i in range(1, len(labels) + 1)]


def test_small_floors_share_sheets_and_every_floor_prints_whole(paternoster) -> None:
    alone = plan_levels(paternoster, "a4", pack=False)
    packed = plan_levels(paternoster, "a4")
    upper_alone = sum(p.sheets for p in alone if p.level != 0)
    upper_packed = sum(p.sheets for p in packed if p.level != 0)
    # measured: 151 sheets building by building, 124 packed (2026-11-25)
    assert upper_packed <= upper_alone * 0.85
    for before, plan in zip(alone, packed, strict=True):
        assert plan.sheets <= before.sheets
        if plan.level == 0:
            continue
        floors = [p.title for g in plan.groups for p in g.pieces] + [
            g.title for g in plan.groups if not g.pieces
        ]
        # every building's floor on the level is printed once
        want = sorted(g.title for g in before.groups) if before.groups[0].title else None
        if want is not None and plan.groups[0].title:
            assert sorted(floors) == want
        for g in plan.groups:
            if not g.pieces:
                continue
            windows = shapely.union_all([shapely.box(*g.grid.tile(c, r)) for c, r in g.keep])
            placed = [shapely.box(*p.placed) for p in g.pieces]
            for i, a in enumerate(placed):
                # every area of the floor is on the printed sheets where the group puts it
                piece = g.pieces[i]
                (bid,) = [b.id for b in paternoster.buildings if b.name == piece.title]
                for area in paternoster.areas:
                    if area.building != bid or plan.level not in paternoster.levels_of(area.id):
                        continue
                    pts = [
                        ((x - plan.ext.minx) * CM + piece.dx, (y - plan.ext.miny) * CM + piece.dy)
                        for x, y in area.polygon
                    ]
                    assert windows.buffer(0.01).contains(shapely.Polygon(pts)), area.id
                    assert a.contains(shapely.Polygon(pts)), area.id
                # ... and no two floors overlap
                for b in placed[i + 1 :]:
                    assert a.intersection(b).area < 1.0  # at most touching (pt²)


def test_packed_sheets_show_their_floors_ids_and_names(paternoster, tmp_path: Path) -> None:
    (plan,) = plan_levels(paternoster, "a4", [2])
    assert any(g.pieces for g in plan.groups)
    path = write_plans(paternoster, tmp_path / "p.pdf", levels=[2])
    r = PdfReader(path)
    tiles = " ".join(p.extract_text() for p in r.pages[2:])  # after overview and guide
    ids = [a.id for a in paternoster.areas if 2 in paternoster.levels_of(a.id)]
    missing = [i for i in ids if not re.search(rf"\b{re.escape(i)}\b", tiles)]
    assert not missing
    for g in plan.groups:
        for piece in g.pieces:
            assert piece.title.split(",")[0] in tiles.replace("\n", " ")
    # the guide labels each sheet over the floors it shows
    guide = r.pages[1].extract_text()
    for g in plan.groups:
        for c, row in g.keep:
            assert g.label(c, row) in guide


def test_bookmarks_and_page_labels_match_the_assembly_guide(paternoster, tmp_path) -> None:
    path = write_plans(paternoster, tmp_path / "p.pdf", levels=[0, 1])
    r = PdfReader(path)
    labels = r.page_labels
    assert labels[0] == "Overview"
    # a bookmark per level, at its assembly guide
    top = [o for o in r.outline if not isinstance(o, list)]
    by_title = {o.title: r.get_destination_page_number(o) for o in top}
    assert set(by_title) == {"Overview", "Ground level", "Level 1"}
    for title, page in by_title.items():
        if title != "Overview":
            assert "how to assemble" in r.pages[page].extract_text()
    # every sheet the guide names carries that label and page number
    for level, first in (("Ground level", by_title["Ground level"]), ("Level 1", None)):
        page = first if first is not None else by_title["Level 1"]
        text = r.pages[page].extract_text()
        named = re.findall(r"([A-Z]+\d+|L1\.\d+)\s*p\. (\d+)", text)
        assert len(named) >= 10, level
        for label, number in named:
            n = int(number) - 1
            assert labels[n] == label
            assert label in r.pages[n].extract_text()
    assert "B2" in labels and "L1.1" in labels


def test_fitted_grid_covers_all_content_with_fewer_sheets() -> None:
    # an L of buildings: a centred grid wastes sheets on the empty corner
    areas = [
        Area(f"A{i}", AreaKind.BUILDING, square(i * 10, 0), building="b") for i in range(9)
    ] + [Area(f"B{j}", AreaKind.BUILDING, square(0, 10 + j * 10), building="b") for j in range(6)]
    sc = Scenario(name="L", buildings=(Building("b", "L-block"),), areas=tuple(areas))
    ext = level_extent(sc, 0)
    shape = shapely.union_all([shapely.Polygon(a.polygon) for a in areas])
    grid, keep = fit_grid([a.polygon for a in areas], ext, "a4")
    assert len(keep) < grid.pages  # the empty corner is left out
    windows = shapely.union_all(
        [
            shapely.box(
                ext.minx + x0 / CM, ext.miny + y0 / CM, ext.minx + x1 / CM, ext.miny + y1 / CM
            )
            for x0, y0, x1, y1 in (grid.tile(c, r) for c, r in keep)
        ]
    )
    assert windows.contains(shape)


def test_unknown_levels_and_buildings_are_usage_errors(tmp_path: Path) -> None:
    sc = small_scenario()
    with pytest.raises(UsageError, match="no level 9"):
        export_pack(sc, tmp_path, only="plans", levels="9")
    with pytest.raises(UsageError, match="did you mean 'simpkin'"):
        export_pack(sc, tmp_path, only="plans", buildings="simpkn")
    with pytest.raises(UsageError, match="not a level number"):
        export_pack(sc, tmp_path, only="plans", levels="ground")
    with pytest.raises(UsageError, match="--fit applies to PDF"):
        export_pack(sc, tmp_path, only="plans", fit=True, fmt="svg")


def test_buildings_keep_the_streets_around_them(tmp_path: Path) -> None:
    sc = small_scenario()
    path = write_plans(sc, tmp_path / "p.pdf", buildings=["longman"])
    text = " ".join(p.extract_text() for p in PdfReader(path).pages)
    assert "L1" in text and "R2" in text  # the building and the street in front
    assert "S1" not in text and "THAMES" not in text  # not the other building, not the river


def test_plans_show_terrain_only_unless_with_start(tmp_path: Path) -> None:
    sc = small_scenario()  # FP1 starts on S1 level 3; fires, rubble and damage at start
    plain = write_plans(sc, tmp_path / "plain.pdf")
    start = write_plans(sc, tmp_path / "start.pdf", with_start=True)

    def text(p: Path) -> str:
        return " ".join(page.extract_text() for page in PdfReader(p).pages)

    assert "FP1" not in text(plain) and "FP1" in text(start)
    # the legends name what is drawn: no fire, damage, rubble or occupants by default
    for key in ("fire (1-5)", "damage (1-5)", "rubble", "occupants", "unit (id)"):
        assert key not in text(plain), key
        assert key in text(start), key


@pytest.mark.parametrize("w,h", [(300, 200), (90, 250)])
def test_alignment_marks_sit_across_the_cut_lines(w: float, h: float) -> None:
    from fireground.export.plans import plan_tiles

    grid = plan_tiles(w * CM, h * CM, "a4")
    ov = grid.overlap
    # a sheet is cut on its left and top frame lines and laid on its neighbour's dashed line
    cuts_x = [grid.tile(i + 1, 0)[0] for i in range(grid.cols - 1)]
    cuts_y = [grid.tile(0, j + 1)[3] for j in range(grid.rows - 1)]
    for i, x in enumerate(cuts_x):
        assert x == pytest.approx(grid.tile(i, 0)[2] - ov)  # the neighbour's dashed line
    marks = grid.marks()
    on_x = [m for m in marks if any(abs(m[0] - x) < 1e-6 for x in cuts_x)]
    on_y = [m for m in marks if any(abs(m[1] - y) < 1e-6 for y in cuts_y)]
    # every cut line carries marks, and none hides in the glued overlap
    for x in cuts_x:
        assert any(abs(m[0] - x) < 1e-6 for m in on_x)
    for y in cuts_y:
        assert any(abs(m[1] - y) < 1e-6 for m in on_y)
    for mx, my in marks:
        for i in range(grid.cols - 1):
            x1 = grid.tile(i, 0)[2]
            assert not (x1 - ov + 1e-6 < mx < x1 - 1e-6)
        for j in range(grid.rows - 1):
            y0 = grid.tile(0, j)[1]
            assert not (y0 + 1e-6 < my < y0 + ov - 1e-6)


def test_no_name_is_cut_short_on_the_plans(paternoster, tmp_path: Path) -> None:
    path = write_plans(paternoster, tmp_path / "p.pdf", levels=[0, 1])
    text = " ".join(p.extract_text() for p in PdfReader(path).pages)
    assert "…" not in text
    assert "from Cheapside" in text  # the entry that printed as "from Cheapsi…"


def test_every_pdf_of_the_pack_embeds_its_fonts(paternoster, tmp_path: Path) -> None:
    sc = small_scenario()
    for path in export_pack(sc, tmp_path, turns=2):
        raw = path.read_bytes()
        assert b"Helvetica" not in raw, path.name  # no unembedded standard-font reference
        r = PdfReader(path)
        for page in r.pages:
            fonts = page.get("/Resources", {}).get("/Font", {})
            for f in fonts.values():
                assert "DejaVuSans" in str(f.get_object()["/BaseFont"]), path.name


def test_cli_reports_pages_on_stderr_and_paths_on_stdout(tmp_path: Path, capsys) -> None:
    from fireground.cli import main

    src = str(EXAMPLES / "stepney.fg.yaml")
    args = ["export", src, "--out", str(tmp_path), "--only", "plans", "--levels", "0,1"]
    assert main([*args, "--with-start"]) == 0
    out, err = capsys.readouterr()
    (path,) = [Path(line) for line in out.split()]
    assert err.startswith(f"plans: {_pages(path)} A4 pages (overview: 1; Ground level: ")
    assert "Basement" not in err
    # bad values are usage errors (exit 2) with a clear message
    assert main(["export", src, "--out", str(tmp_path), "--levels", "5"]) == 2
    assert "no level 5" in capsys.readouterr().err
    assert main(["export", src, "--out", str(tmp_path), "--buildings", "nowhere"]) == 2
    assert "--buildings: no building 'nowhere'" in capsys.readouterr().err
