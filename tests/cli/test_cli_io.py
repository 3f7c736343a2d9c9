"""check, convert, schema and new: exit codes, output formats, atomic writes."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from fireground.cli import main
from fireground.engine.scenario import migrate
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.io import json_schema, load_scenario, loads_scenario

REPO = Path(__file__).resolve().parents[2]
GOOD = REPO / "templates" / "street.fg.yaml"
OVERLAP = """\
fireground: 1
ruleset: blitz
areas:
  - {id: R1, kind: street, polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]}
  - {id: R2, kind: street, polygon: [[5, 5], [15, 5], [15, 15], [5, 15]]}
features:
  - {type: hydrant, area: R1, pressure: 3}
"""
INVALID = "fireground: 1\nruleset: blitz\nturns: 0\n"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def good(tmp_path: Path) -> Path:
    p = tmp_path / "good.fg.yaml"
    p.write_bytes(GOOD.read_bytes())
    return p


# -- check -------------------------------------------------------------------------------


def test_check_clean_file_exits_0(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(["check", str(good)], capsys)
    assert rc == 0, out + err
    assert "0 errors" in err


def test_check_findings_exit_1_with_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("fireground.engine.games.blitz.checks.run")
    p = tmp_path / "o.fg.yaml"
    p.write_text(OVERLAP)
    rc, out, _ = run(["check", str(p)], capsys)
    assert rc == 1
    lines = [ln for ln in out.splitlines() if ln.startswith(f"{p}:")]
    assert any(ln.startswith(f"{p}:4:5: FG") for ln in lines), out
    assert lines == sorted(lines, key=lambda ln: int(ln.split(":")[1]))


def test_check_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("fireground.engine.games.blitz.checks.run")
    p = tmp_path / "o.fg.yaml"
    p.write_text(OVERLAP)
    rc, out, _ = run(["check", str(p), "--json"], capsys)
    assert rc == 1
    found = json.loads(out)
    assert set(found) == {"errors", "warnings"}
    assert found["errors"]
    for item in found["errors"] + found["warnings"]:
        assert set(item) == {"code", "severity", "message", "area", "level", "line"}
    assert all(e["severity"] == "error" for e in found["errors"])
    assert any(e["line"] == 4 for e in found["errors"])


def test_check_json_of_an_invalid_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bad.fg.yaml"
    p.write_text(INVALID)
    rc, out, err = run(["check", str(p), "--json"], capsys)
    assert rc == 2
    found = json.loads(out)
    assert found["errors"][0]["line"] == 3
    assert "turns must be 1..500" in found["errors"][0]["message"]
    assert f"{p}:3:8: turns must be 1..500, got 0" in err


def test_check_invalid_and_missing_files_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "bad.fg.yaml"
    p.write_text(INVALID)
    rc, _, err = run(["check", str(p)], capsys)
    assert (rc, err) == (2, f"{p}:3:8: turns must be 1..500, got 0\n")
    rc, _, err = run(["check", str(tmp_path / "nope.fg.yaml")], capsys)
    assert rc == 2 and "nope.fg.yaml: No such file or directory" in err
    rc, _, err = run(["check", str(tmp_path)], capsys)
    assert rc == 2 and "Is a directory" in err


def test_check_in_a_real_process(good: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.fg.yaml"
    bad.write_text(INVALID)
    for path, code in ((good, 0), (bad, 2)):
        r = subprocess.run([sys.executable, "-m", "fireground", "check", str(path)],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
        assert r.returncode == code, r.stderr
        assert "Traceback" not in r.stderr


# -- convert -----------------------------------------------------------------------------


def test_convert_in_place_keeps_a_backup(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = good.read_bytes()
    good.chmod(0o640)
    rc, out, _ = run(["convert", str(good)], capsys)
    assert rc == 0 and "written in format 1" in out
    assert (good.parent / "good.fg.yaml.bak").read_bytes() == original
    assert stat.S_IMODE(good.stat().st_mode) == 0o640
    converted = good.read_bytes()
    assert load_scenario(good) == loads_scenario(original)
    assert converted == dump_scenario(load_scenario(good)).encode()
    run(["convert", str(good)], capsys)
    assert good.read_bytes() == converted  # converting again changes nothing


def test_convert_to_another_file(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = good.parent / "out.fg.yaml"
    rc, _, _ = run(["convert", str(good), str(out_path)], capsys)
    assert rc == 0
    assert load_scenario(out_path) == load_scenario(good)
    assert not (good.parent / "good.fg.yaml.bak").exists()


def test_convert_migrates_an_old_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def v0_to_v1(data: dict[str, object]) -> dict[str, object]:
        data["name"] = data.pop("title")
        return data

    monkeypatch.setitem(migrate.STEPS, 0, v0_to_v1)
    p = tmp_path / "old.fg.yaml"
    old = "fireground: 0\ntitle: An old file\nruleset: blitz\n"
    p.write_text(old)
    rc, _, _ = run(["convert", str(p)], capsys)
    assert rc == 0
    text = p.read_text()
    assert "fireground: 1\n" in text and "name: An old file\n" in text
    assert (tmp_path / "old.fg.yaml.bak").read_text() == old


def test_convert_on_a_full_disk_keeps_the_original(
    good: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    original = good.read_bytes()

    def enospc(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", enospc)
    rc, _, err = run(["convert", str(good)], capsys)
    monkeypatch.undo()
    assert rc == 2
    assert f"{good}: cannot save: No space left on device" in err
    assert good.read_bytes() == original
    assert sorted(p.name for p in good.parent.iterdir()) == ["good.fg.yaml"]


def test_convert_refuses_an_invalid_file_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "bad.fg.yaml"
    p.write_text(INVALID)
    rc, _, err = run(["convert", str(p)], capsys)
    assert rc == 2 and f"{p}:3:8:" in err
    assert p.read_text() == INVALID
    assert not (tmp_path / "bad.fg.yaml.bak").exists()


# -- schema and new ----------------------------------------------------------------------


def test_schema_prints_the_generated_schema(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(["schema"], capsys)
    assert rc == 0
    assert json.loads(out) == json_schema()


@pytest.mark.parametrize("template", ["blank", "street"])
def test_new_from_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: str
) -> None:
    p = tmp_path / "mine.fg.yaml"
    rc, out, _ = run(["new", str(p), "--template", template], capsys)
    assert rc == 0 and template in out
    assert p.read_text().startswith("# yaml-language-server: $schema=")
    s = load_scenario(p)
    assert s.ruleset == "blitz"


def test_new_uses_blank_by_default_and_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "mine.fg.yaml"
    assert run(["new", str(p)], capsys)[0] == 0
    assert load_scenario(p).areas == ()
    p.write_text("my precious work\n")
    rc, _, err = run(["new", str(p), "--template", "street"], capsys)
    assert rc == 2 and "already exists" in err
    assert p.read_text() == "my precious work\n"


def test_new_unknown_template(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(["new", str(tmp_path / "x.fg.yaml"), "--template", "nope"], capsys)
    assert rc == 2
    assert "unknown template 'nope'" in err and "blank" in err and "street" in err
    assert not (tmp_path / "x.fg.yaml").exists()


def test_every_template_loads_and_checks_clean() -> None:
    checks = pytest.importorskip("fireground.engine.games.blitz.checks.run")
    for path in sorted((REPO / "templates").glob("*.fg.yaml")):
        s = load_scenario(path)
        errors = [f for f in checks.check(s) if f.severity == "error"]
        assert not errors, (path.name, errors)
