"""The pack end to end: turn report from the engine, SVG/PNG plans, the CLI."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from export_scenarios import small_scenario, square
from pypdf import PdfReader

from fireground.cli import main
from fireground.engine.board.model import Area, AreaKind, Building, Scenario
from fireground.export.games.blitz.turn_report import event_text, write_turn_report
from fireground.export.pack import export_pack

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_turn_report_tells_turns_and_seed(tmp_path: Path) -> None:
    sc = small_scenario()
    path = write_turn_report(sc, tmp_path / "t.pdf", turns=3, seed=11)
    text = "\n".join(p.extract_text() for p in PdfReader(path, strict=True).pages)
    for n in (1, 2, 3):
        assert f"Turn {n} ·" in text
    assert "seed 11" in text and "--seed 11" in text
    assert "Scorecard" in text and "Locations destroyed" in text


def test_turn_report_from_a_given_log(tmp_path: Path) -> None:
    log = {
        "fireground_log": 1,
        "seed": 5,
        "turns": [
            {
                "turn": 1,
                "events": [
                    {
                        "step": 1,
                        "rule": "spread",
                        "from": {"area": "S1", "level": 0},
                        "to": {"area": "S2", "level": 0},
                        "dice": [2],
                        "modifier": -1,
                        "need": "<=2",
                        "success": True,
                    }
                ],
                "state": {
                    "fires": [{"area": "S2", "level": 0, "fire": 1}],
                    "embers": [],
                    "damp": [],
                    "damage": [],
                    "rubble": [],
                    "craters": [],
                    "all_clear": False,
                    "units": [],
                    "hoses": [],
                    "casualties": [],
                },
            }
        ],
        "score": {"destroyed": 0, "burning": 1, "objectives": []},
    }
    path = write_turn_report(small_scenario(), tmp_path / "t.pdf", log=log)
    text = PdfReader(path, strict=True).pages[0].extract_text()
    assert "Fire spreads from S1 level 0 to S2 level 0 (rolled 2 -1" in text.replace("\n", " ")


def test_event_text_is_plain_english() -> None:
    ev = {
        "rule": "growth",
        "at": {"area": "B1", "level": 2},
        "dice": [6],
        "modifier": 1,
        "need": ">=6",
        "success": True,
        "ruling": "R-4",
    }
    assert event_text(ev) == "The fire in B1 level 2 grows (rolled 6 +1; needed >=6; R-4)."


def test_svg_plan_is_true_scale(tmp_path: Path) -> None:
    sc = Scenario(
        name="svg",
        buildings=(Building("b"),),
        areas=(Area("A", AreaKind.BUILDING, square(0, 0), building="b"),),
    )
    (svg,) = export_pack(sc, tmp_path, only="plans", fmt="svg")
    root = ET.parse(svg).getroot()
    width_mm = float(root.get("width").removesuffix("mm"))
    vb = [float(v) for v in root.get("viewBox").split()]
    mm_per_unit = width_mm / vb[2]
    poly = root.find("{http://www.w3.org/2000/svg}g/{http://www.w3.org/2000/svg}polygon")
    xs = [float(p.split(",")[0]) for p in poly.get("points").split()]
    assert (max(xs) - min(xs)) * mm_per_unit == pytest.approx(100.0)


def test_svg_and_png_plans_show_what_the_pdf_plan_shows(tmp_path: Path) -> None:
    from PIL import Image

    sc = small_scenario()
    svgs = export_pack(sc, tmp_path, only="plans", fmt="svg", with_start=True)
    ground = next(p for p in svgs if p.name.endswith("level-0.svg"))
    root = ET.parse(ground).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    # building names, ids, water name, the north arrow, the scale bar and the legend
    assert "Simpkin Marshall warehouse" in texts and "Longman's" in texts
    assert {"S1", "R1", "THAMES"} <= set(texts)
    assert "N" in texts
    assert any("cm on the table" in (t or "") for t in texts)
    assert "hydrant (pressure)" in texts and "unit (id)" in texts
    # the start state: E1 starts in R1 (its unit marker), fire 1 in S2
    assert "E1" in texts
    paths = list(root.iter(f"{ns}path"))
    assert len(paths) > 30  # symbols and markers, not only the area polygons
    # the band below the map keeps the true scale: 1 viewBox unit = 10 mm
    vb = [float(v) for v in root.get("viewBox").split()]
    assert float(root.get("width").removesuffix("mm")) == pytest.approx(vb[2] * 10)
    assert float(root.get("height").removesuffix("mm")) == pytest.approx(vb[3] * 10)
    (png,) = [
        p
        for p in export_pack(sc, tmp_path / "png", only="plans", fmt="png", with_start=True)
        if p.name.endswith("level-0.png")
    ]
    img = Image.open(png).convert("RGB")
    assert img.width == round(vb[2] * 100 / 2.54) and img.height == round(vb[3] * 100 / 2.54)
    colours = {c for _, c in img.getcolors(1_000_000)}
    assert (0xC4, 0x16, 0x1C) in colours  # the hydrant's red: symbols are painted


def test_png_plan_states_its_dpi(tmp_path: Path) -> None:
    from PIL import Image

    sc = Scenario(
        name="png",
        buildings=(Building("b"),),
        areas=(Area("A", AreaKind.BUILDING, square(0, 0), building="b"),),
    )
    (png,) = export_pack(sc, tmp_path, only="plans", fmt="png")
    img = Image.open(png)
    assert round(img.info["dpi"][0]) == 100
    assert img.width == round(12 * 100 / 2.54)  # 10 cm area + 1 cm margin each side


def test_cli_export_writes_the_whole_pack(tmp_path: Path, capsys) -> None:
    src = EXAMPLES / "stepney.fg.yaml"
    if not src.exists():
        pytest.skip("example not written yet")
    rc = main(["export", str(src), "--out", str(tmp_path), "--turns", "2", "--seed", "3"])
    assert rc == 0
    printed = capsys.readouterr().out.split()
    kinds = [re.match(r"[a-z]+", Path(p).name).group(0) for p in printed]
    assert kinds == ["plans", "cards", "reference", "counters", "turns", "briefing"]
    for p in printed:
        r = PdfReader(p, strict=True)
        assert len(r.pages) >= 1
        for page in r.pages:
            page.extract_text()


def test_cli_export_bad_only_is_usage_error(tmp_path: Path, capsys) -> None:
    rc = main(
        ["export", str(EXAMPLES / "stepney.fg.yaml"), "--out", str(tmp_path), "--only", "cardz"]
    )
    assert rc == 2
    assert "did you mean 'cards'" in capsys.readouterr().err


def test_cli_png_plans_follow_dpi_option(tmp_path: Path, capsys) -> None:
    from PIL import Image

    from fireground.engine.scenario.io import save_scenario

    src = tmp_path / "s.fg.yaml"
    save_scenario(small_scenario(), src)
    assert main(["export", str(src), "--out", str(tmp_path / "o"), "--only", "plans",
                 "--format", "png", "--dpi", "50"]) == 0  # fmt: skip
    pngs = sorted((tmp_path / "o").glob("plans-*.png"))
    assert pngs
    with Image.open(pngs[0]) as im:
        assert round(im.info["dpi"][0]) == 50
        small_w = im.size[0]
    # still 1:1: the same plan at the default 100 dpi is twice as wide in pixels
    assert main(["export", str(src), "--out", str(tmp_path / "p"), "--only", "plans",
                 "--format", "png"]) == 0  # fmt: skip
    with Image.open(sorted((tmp_path / "p").glob("plans-*.png"))[0]) as im:
        assert abs(im.size[0] - 2 * small_w) <= 2
    capsys.readouterr()
    assert main(["export", str(src), "--out", str(tmp_path / "q"), "--only", "plans",
                 "--format", "png", "--dpi", "5"]) == 2  # fmt: skip
    assert "--dpi" in capsys.readouterr().err
