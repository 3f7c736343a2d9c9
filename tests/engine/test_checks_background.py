"""FG170: the tracing background's image is looked for next to the scenario file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fireground.cli import main
from fireground.engine.board.model import Background, Scenario
from fireground.engine.games.blitz.checks.refs import background_image_path
from fireground.engine.games.blitz.checks.run import check
from fireground.engine.scenario.io import load_scenario, loads_scenario

MAP = """\
fireground: 1
name: traced
ruleset: blitz
areas:
  - {id: R1, kind: street, polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]}
features:
  - {type: hydrant, area: R1, pressure: 3}
background:
  image: plans/sheet 31.png
  cm_per_px: 0.05
"""
IMAGE_LINE = 9  # the line of 'image:' in MAP


def fg170(s: Scenario) -> list[str]:
    return [f.message for f in check(s) if f.code == "FG170"]


def write_map(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "traced.fg.yaml"
    path.write_text(MAP)
    return path


def test_missing_image_is_a_warning_at_its_line(tmp_path: Path) -> None:
    path = write_map(tmp_path / "maps")
    s = load_scenario(path)
    found = [f for f in check(s) if f.code == "FG170"]
    assert len(found) == 1
    f = found[0]
    assert (f.severity, f.line) == ("warning", IMAGE_LINE)
    want = tmp_path / "maps" / "plans" / "sheet 31.png"
    assert f.message == f"background image 'plans/sheet 31.png' not found (looked for {want})"


def test_image_next_to_the_scenario_file_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_map(tmp_path / "maps")
    (tmp_path / "maps" / "plans").mkdir()
    (tmp_path / "maps" / "plans" / "sheet 31.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # relative to the scenario file, not the current folder
    s = load_scenario(path)
    assert fg170(s) == []
    assert background_image_path(s) == str(tmp_path / "maps" / "plans" / "sheet 31.png")
    # A relative file name for the scenario works the same way.
    monkeypatch.chdir(tmp_path)
    assert fg170(load_scenario(Path("maps") / "traced.fg.yaml")) == []


def test_image_in_the_current_folder_but_not_next_to_the_file_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_map(tmp_path / "maps")
    (tmp_path / "plans").mkdir()
    (tmp_path / "plans" / "sheet 31.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    monkeypatch.chdir(tmp_path)
    assert len(fg170(load_scenario(path))) == 1


def test_a_folder_is_not_an_image(tmp_path: Path) -> None:
    path = write_map(tmp_path)
    (tmp_path / "plans" / "sheet 31.png").mkdir(parents=True)
    (msg,) = fg170(load_scenario(path))
    assert msg.startswith("background image 'plans/sheet 31.png' is not a file")


def test_no_background_or_no_file_gives_no_warning(tmp_path: Path) -> None:
    s = loads_scenario(MAP)  # from text: no folder to look in
    assert s.background is not None and background_image_path(s) is None
    assert fg170(s) == []
    assert fg170(replace(load_scenario(write_map(tmp_path)), background=None)) == []


def test_an_absolute_path_is_checked_as_it_is(tmp_path: Path) -> None:
    image = tmp_path / "scan.jpg"
    s = replace(loads_scenario(MAP), background=Background(image=str(image)))
    (msg,) = fg170(s)
    assert msg == f"background image '{image}' not found (looked for {image})"
    image.write_bytes(b"\xff\xd8\xff")
    assert fg170(s) == []


def test_cli_check_reports_it_without_failing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_map(tmp_path)
    assert main(["check", str(path)]) == 0  # a warning: the scenario still plays
    out = capsys.readouterr().out
    assert f"{path}:{IMAGE_LINE}:1: FG170 background image 'plans/sheet 31.png' not found" in out
    (tmp_path / "plans").mkdir()
    (tmp_path / "plans" / "sheet 31.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["check", str(path)]) == 0
    assert "FG170" not in capsys.readouterr().out
