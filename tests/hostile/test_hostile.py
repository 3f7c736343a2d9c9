"""Broken and malicious scenario files: every command that reads one refuses it cleanly.

Refused means: exit code 1 or 2, a ``FILE:LINE:COL: message`` naming the problem, no
Python traceback, within 5 s, and nothing executed or written. Commands not written yet
(export, analyze, ...) are skipped until their module exists.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fireground.cli import main

HERE = Path(__file__).resolve().parent

#: Files the loader refuses, with where it must point (LINE:COL).
FORMAT_LEVEL = {
    "syntax_error.fg.yaml": "4:6",
    "alias_bomb.fg.yaml": "3:4",
    "python_tag.fg.yaml": "3:7",
    "binary.fg.yaml": "1:1",
    "latin1.fg.yaml": "3:10",
    "control_char.fg.yaml": "3:13",
    "nan.fg.yaml": "6:24",
    "infinity.fg.yaml": "6:24",
    "future_version.fg.yaml": "1:13",
    "no_version.fg.yaml": "1:1",
    "empty.fg.yaml": "1:1",
    "duplicate_keys.fg.yaml": "4:1",
    "duplicate_ids.fg.yaml": "5:10",
    "wrong_types.fg.yaml": "3:8",
    "out_of_range.fg.yaml": "3:8",
    "dangling_refs.fg.yaml": "6:27",
    "unknown_keys.fg.yaml": "4:20",
}
#: Files that load (the editor must open them) but that `check` finds unplayable.
MAP_LEVEL = ["bowtie.fg.yaml", "zero_area.fg.yaml", "overlap.fg.yaml"]
GENERATED = ["deep_nesting.fg.yaml", "huge.fg.yaml"]


def _generated(name: str, folder: Path) -> Path:
    p = folder / name
    if name == "deep_nesting.fg.yaml":
        p.write_text("fireground: 1\nruleset: blitz\nname: " + "[" * 500_000 + "\n")
    else:
        with open(p, "wb") as f:
            f.write(b"fireground: 1\nruleset: blitz\n")
            f.truncate(20 * 2**20 + 1)  # sparse: a 20 MB + 1 byte file that costs no disk
    return p


#: Where each generated file is refused: LINE:COL, or LINE and the columns it may fall in
#: (deep nesting: libyaml 0.2.6+ caps flow nesting in its scanner, before the loader's own
#: count of 100 levels, so the column depends on the build; it is always inside the run of
#: brackets that starts at column 7).
GENERATED_WHERE = {"deep_nesting.fg.yaml": (3, 107, 6 + 500_000), "huge.fg.yaml": "1:1"}


def _have(module: str, attr: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None and hasattr(
            importlib.import_module(module), attr
        )
    except Exception:
        return False


#: command -> (argv builder, module that implements it, reads_map_errors_as_refusal)
COMMANDS = {
    "check": (lambda f, tmp: ["check", f], "fireground.commands", "cmd_check", True),
    "check --json": (lambda f, tmp: ["check", f, "--json"], "fireground.commands", "cmd_check", True),
    "convert": (lambda f, tmp: ["convert", f, str(tmp / "out.fg.yaml")], "fireground.commands", "cmd_convert", False),
    "convert in place": (lambda f, tmp: ["convert", f], "fireground.commands", "cmd_convert", False),
    "simulate": (lambda f, tmp: ["simulate", f, "--turns", "1"], "fireground.simulate", "cmd_simulate", True),
    "export": (lambda f, tmp: ["export", f, "--out", str(tmp / "pack")], "fireground.export.pack", "cli_export", True),
    "analyze": (lambda f, tmp: ["analyze", f, "--games", "2"], "fireground.analyze", "cmd_analyze", True),
    "export-geojson": (lambda f, tmp: ["export-geojson", f, "--out", str(tmp / "m.geojson")], "fireground.geojson", "to_geojson", False),
}  # fmt: skip


#: Known gaps, reported to the lead: these commands do not yet refuse a scenario that
#: `check` finds errors in (issue 2: simulate, export and analyze refuse errors). Non-strict
#: so that the fix shows up as XPASS; then delete the entry.
NOT_YET_REFUSED: dict[tuple[str, str], str] = {}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str, float]:
    t0 = time.perf_counter()
    rc = main(argv)
    elapsed = time.perf_counter() - t0
    out, err = capsys.readouterr()
    return rc, out, err, elapsed


def _cases() -> list[object]:
    cases = []
    for cmd, (_, module, attr, map_errors) in COMMANDS.items():
        marks = (
            [] if _have(module, attr) else [pytest.mark.skip(reason=f"{module} not written yet")]
        )
        names = [*FORMAT_LEVEL, *GENERATED] + (MAP_LEVEL if map_errors else [])
        for n in names:
            m = list(marks)
            if n in MAP_LEVEL and (cmd, n) in NOT_YET_REFUSED:
                m.append(pytest.mark.xfail(reason=NOT_YET_REFUSED[cmd, n], strict=False))
            cases.append(pytest.param(cmd, n, marks=m, id=f"{cmd}-{n}"))
    return cases


@pytest.mark.parametrize(("command", "name"), _cases())
def test_hostile_file_is_refused(
    command: str,
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # anything a file managed to execute would land here
    monkeypatch.delenv("FIREGROUND_DEBUG", raising=False)
    work = tmp_path / "in"
    work.mkdir()
    if name in GENERATED:
        path = _generated(name, work)
    else:
        path = work / name
        path.write_bytes((HERE / name).read_bytes())
    before = path.read_bytes() if name != "huge.fg.yaml" else None
    argv = COMMANDS[command][0](str(path), tmp_path)

    rc, out, err, elapsed = _run(argv, capsys)

    assert rc in (1, 2), (rc, out, err)
    assert "Traceback" not in err + out
    assert elapsed < 5.0
    where = FORMAT_LEVEL.get(name) or GENERATED_WHERE.get(name)
    if isinstance(where, tuple):
        line, first, last = where
        m = re.search(rf"{re.escape(str(path))}:{line}:(\d+): nesting deeper", err)
        assert m and first <= int(m.group(1)) <= last, err
        assert rc == 2
    elif where is not None:
        assert f"{path}:{where}: " in err, err
        assert rc == 2
    elif "--json" in argv:  # findings with their line in JSON
        found = json.loads(out)
        assert found["errors"] and all(e["line"] for e in found["errors"]), out
    else:  # map-level errors are findings: FILE:LINE:COL: CODE message
        assert re.search(rf"{re.escape(str(path))}:\d+:\d+: (FG\d+ )?", out + err), out + err
    # nothing executed, nothing written next to the file or in the working folder
    assert sorted(p.name for p in work.iterdir()) == [name]
    assert not (tmp_path / "out.fg.yaml").exists()
    assert not (tmp_path / "fireground-pwned").exists()
    if before is not None:
        assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("name", "argv"),
    [("alias_bomb.fg.yaml", ["check"]), ("python_tag.fg.yaml", ["convert"]),
     ("latin1.fg.yaml", ["check", "--json"])],
)  # fmt: skip
def test_hostile_file_in_a_real_process(name: str, argv: list[str], tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes((HERE / name).read_bytes())
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "fireground", argv[0], str(path), *argv[1:]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert time.perf_counter() - t0 < 10.0  # includes interpreter start-up on a busy machine
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert f"{path}:{FORMAT_LEVEL[name]}: " in r.stderr
    assert not (tmp_path / "fireground-pwned").exists()


def test_every_committed_hostile_file_is_listed() -> None:
    on_disk = {p.name for p in HERE.glob("*.fg.yaml")}
    assert on_disk == set(FORMAT_LEVEL) | set(MAP_LEVEL)
