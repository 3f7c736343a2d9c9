"""Every subcommand on hostile input: the exit code of cli.md and never a traceback.

Exit codes: 0 success, 1 the job failed on the user's data, 2 bad usage or an unreadable /
invalid file. Cases are run in-process through ``fireground.cli.main`` (a handful through a
real subprocess, where the interpreter's own traceback printing would show).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fireground import cli
from fireground.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "paternoster.fg.yaml"
BLANK = REPO / "templates" / "blank.fg.yaml"  # no areas, and one warning (no water)

SKETCH = "fireground: 1\nruleset: blitz\nname: Sketch\n"  # valid, warnings only, no areas
OVERLAP = """\
fireground: 1
ruleset: blitz
areas:
  - {id: R1, kind: street, polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]}
  - {id: R2, kind: street, polygon: [[5, 5], [15, 5], [15, 15], [5, 15]]}
features:
  - {type: hydrant, area: R1, pressure: 3}
"""  # two overlapping areas: a check error (FG112), so every job refuses it
ONE_POLYGON = (
    '{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": '
    '"Polygon", "coordinates": [[[0, 0], [5, 0], [5, 5], [0, 5], [0, 0]]]}, '
    '"properties": {"id": "a1", "kind": "street"}}]}'
)


@pytest.fixture
def q(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of bad inputs; the working directory, so relative paths stay short."""
    monkeypatch.delenv("FIREGROUND_DEBUG", raising=False)
    monkeypatch.setenv("FIREGROUND_WORKERS", "1")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("hello\n")
    (tmp_path / "empty.fg.yaml").write_text("")
    (tmp_path / "only.fg.yaml").write_text("fireground: 1\n")
    (tmp_path / "bad.yaml").write_text("not: [valid\n")
    (tmp_path / "sketch.fg.yaml").write_text(SKETCH)
    (tmp_path / "badorders.json").write_text('{"orders": 3}\n')
    (tmp_path / "one.geojson").write_text(ONE_POLYGON)
    (tmp_path / "bad.geojson").write_text("[1,2\n")
    (tmp_path / "empty.geojson").write_text('{"type": "FeatureCollection", "features": []}')
    (tmp_path / "pat.fg.yaml").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "overlap.fg.yaml").write_text(OVERLAP)
    return tmp_path


def _argv(args: str) -> list[str]:
    return [a.replace("$E", str(EXAMPLE)).replace("$B", str(BLANK)) for a in args.split()]


def _run(args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        rc = main(_argv(args))
    except SystemExit as e:  # argparse's own usage errors
        rc = e.code if isinstance(e.code, int) else 2
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "internal error" not in err, err
    return rc, out, err


BAD_FILES = ["nope.fg.yaml", "adir", "empty.fg.yaml", "only.fg.yaml", "bad.yaml"]
FILE_COMMANDS = [
    "check {}",
    "check {} --json",
    "simulate {}",
    "export {} --out o1",
    "analyze {} --games 3",
    "analyze $E --games 3 --turns 1 --against {}",
    "convert {}",
    "export-geojson {} --out x.geojson",
]


@pytest.mark.parametrize("bad", BAD_FILES)
@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_bad_scenario_file_is_exit_2(
    q: Path, capsys: pytest.CaptureFixture[str], command: str, bad: str
) -> None:
    rc, _, err = _run(command.format(bad), capsys)
    assert rc == 2
    assert err.startswith(bad), err  # FILE[:LINE:COL]: message
    assert not (q / "o1").exists() and not (q / "x.geojson").exists()


# (arguments, exit code, a piece of stderr)
CASES = [
    # simulate: numbers and side files
    ("simulate $E --turns -1", 2, "--turns"),
    ("simulate $E --turns 501", 2, "at most 500"),
    ("simulate $E --turns 1000000000000", 2, "at most 500"),  # used to run for ever
    ("simulate $E --turns abc", 2, "--turns"),
    ("simulate $E --turns 0", 0, ""),
    ("simulate $E --turns 1 --seed -5", 0, ""),
    ("simulate $E --turns 1 --seed 1000000000000000000000000000000", 0, ""),
    ("simulate $E --turns 1 --orders nope.json", 2, "nope.json"),
    ("simulate $E --turns 1 --orders adir", 2, "adir"),
    ("simulate $E --turns 1 --orders badorders.json", 2, "badorders.json:1:"),
    ("simulate $E --turns 1 --orders bad.yaml", 2, "bad.yaml"),
    ("simulate $E --turns 1 --log nodir/x/log.json", 2, "nodir/x/log.json"),
    ("simulate $E --turns 1 --log adir", 2, "adir"),
    ("simulate sketch.fg.yaml --turns 2", 0, ""),
    ("simulate $B --turns 2 --json", 0, ""),
    # export
    ("export $E --out afile --only reference", 2, "afile"),
    ("export $E --out o2 --only bogus", 2, "--only"),
    ("export $E --out o2 --only reference --turns 0", 2, "--turns"),
    ("export $E --out o2 --only turns --turns 100000000000000", 2, "at most 500"),
    ("export $E --out o2 --only plans --format png --dpi 0", 2, "--dpi"),
    ("export $E --out o2 --only plans --format png --dpi -5", 2, "--dpi"),
    ("export $E --out o2 --only ,", 2, "--only"),  # used to write nothing and succeed
    ("export $E --out o2 --only", 2, "--only"),
    ("export $E --out o2 --paper a3", 2, "--paper"),
    ("export $E --out n1/n2/n3 --only reference", 0, ""),
    ("export sketch.fg.yaml --out o3 --only reference,cards", 0, ""),
    # demo refuses an --out that is a file
    ("demo --out afile", 2, "afile"),
    # analyze
    ("analyze $E --games 0", 2, "--games"),
    ("analyze $E --games -3", 2, "--games"),
    ("analyze $E --games 1000000000000000000000000000000", 2, "--games must be at most"),
    ("analyze $E --games 3 --turns -1", 2, "--turns"),
    ("analyze $E --games 3 --turns 501", 2, "at most 500"),
    ("analyze $E --games 3 --turns 1 --seed -7", 2, "--seed"),  # was an internal error
    ("analyze $E --games 3 --turns 1 --seed 1000000000000000000000000000000 --json", 0, ""),
    ("analyze $E --games 3 --turns 1 --out nodir/x/r.pdf", 2, "nodir/x/r.pdf"),
    ("analyze $E --games 3 --turns 1 --out r.pdf", 0, ""),
    ("analyze $E --games 3 --turns 1 --out adir", 2, "adir"),
    # a scenario with no areas yet: refused clearly (was "cannot reshape array")
    ("analyze sketch.fg.yaml --games 3", 1, "no areas"),
    ("analyze $B --games 3 --no-response --json", 1, "no areas"),
    ("analyze $E --games 3 --turns 1 --against sketch.fg.yaml", 1, "sketch.fg.yaml: nothing"),
    # convert
    ("convert pat.fg.yaml nodir/x/out.fg.yaml", 2, "nodir/x/out.fg.yaml"),
    ("convert pat.fg.yaml adir", 2, "adir"),
    ("convert pat.fg.yaml pat2.fg.yaml", 0, ""),
    # new
    ("new n1.fg.yaml --template nosuch", 2, "unknown template"),
    ("new n1.fg.yaml --template ../examples/paternoster", 2, "unknown template"),
    ("new afile", 2, "already exists"),
    ("new adir", 2, "already exists"),
    ("new nodir/x/n.fg.yaml", 2, "nodir/x/n.fg.yaml"),
    ("new n2.fg.yaml --template street", 0, ""),
    # GeoJSON both ways
    ("import-geojson nope.geojson --out g.fg.yaml", 2, "nope.geojson"),
    ("import-geojson adir --out g.fg.yaml", 2, "adir"),
    ("import-geojson empty.fg.yaml --out g.fg.yaml", 2, "empty.fg.yaml:1:1"),
    ("import-geojson bad.geojson --out g.fg.yaml", 2, "bad.geojson:2:1"),
    ("import-geojson empty.geojson --out g.fg.yaml", 2, "empty.geojson"),
    ("import-geojson one.geojson --out nodir/x/g.fg.yaml", 2, "nodir/x/g.fg.yaml"),
    ("import-geojson one.geojson --out adir", 2, "adir"),
    ("import-geojson one.geojson --out g.fg.yaml --metres-per-cm 0", 2, "--metres-per-cm"),
    ("import-geojson one.geojson --out g.fg.yaml --metres-per-cm -1", 2, "--metres-per-cm"),
    ("import-geojson one.geojson --out g.fg.yaml --metres-per-cm nan", 2, "--metres-per-cm"),
    ("import-geojson one.geojson --out g.fg.yaml --metres-per-cm inf", 2, "--metres-per-cm"),
    ("import-geojson one.geojson --out g.fg.yaml --metres-per-cm 1e308", 2, "one.geojson:1:1"),
    ("import-geojson one.geojson --out g.fg.yaml --metres-per-cm 1e-308", 2, "one.geojson:1:1"),
    ("import-geojson one.geojson --out g.fg.yaml", 0, ""),
    ("export-geojson sketch.fg.yaml --out x1.geojson", 0, ""),
    ("export-geojson $E --out nodir/x/x.geojson", 2, "nodir/x/x.geojson"),
    ("export-geojson $E --out adir", 2, "adir"),
    ("export-geojson $E --out x.geojson --metres-per-cm 0", 2, "--metres-per-cm"),
    ("export-geojson $E --out x.geojson --metres-per-cm nan", 2, "--metres-per-cm"),
    # check: warnings only is success; no subcommand or a stray argument is usage
    ("check sketch.fg.yaml", 0, "0 errors, 1 warning"),
    ("check $B --json", 0, ""),
    ("check -", 2, "-: "),
    ("check overlap.fg.yaml", 1, "1 error"),
    ("simulate overlap.fg.yaml", 1, "FG112"),
    ("export overlap.fg.yaml --out o7", 1, "FG112"),
    ("analyze overlap.fg.yaml --games 2", 1, "FG112"),
    ("analyze $E --games 2 --against overlap.fg.yaml", 1, "overlap.fg.yaml:4:5: FG112"),
    ("check", 2, "required"),
    ("schema extra", 2, "unrecognized"),
    ("", 2, ""),
]


@pytest.mark.parametrize(("args", "code", "says"), CASES, ids=[c[0] for c in CASES])
def test_exit_code(
    q: Path, capsys: pytest.CaptureFixture[str], args: str, code: int, says: str
) -> None:
    rc, _, err = _run(args, capsys)
    assert rc == code, err
    assert says in err


def test_max_turns_matches_the_format() -> None:
    from fireground.engine.scenario.schema import RANGES

    assert RANGES["turns"][1] == cli.MAX_TURNS


EDIT_CASES = [
    ("edit nope.fg.yaml --screenshot s.png", 2, "nope.fg.yaml"),
    ("edit adir --screenshot s.png", 2, "adir"),
    ("edit empty.fg.yaml --screenshot s.png", 2, "empty.fg.yaml:1:1"),
    ("edit only.fg.yaml --screenshot s.png", 2, "only.fg.yaml:1:1"),
    ("edit sketch.fg.yaml --screenshot nodir/x/s.png", 2, "nodir/x/s.png"),
    ("edit sketch.fg.yaml --screenshot adir", 2, "adir"),
    ("edit sketch.fg.yaml --screenshot s.png", 0, ""),
]


@pytest.mark.parametrize(("args", "code", "says"), EDIT_CASES, ids=[c[0] for c in EDIT_CASES])
def test_edit_exit_code(
    q: Path, capsys: pytest.CaptureFixture[str], args: str, code: int, says: str
) -> None:
    pytest.importorskip("PySide6")
    if os.environ.get("QT_QPA_PLATFORM") != "offscreen" and not os.environ.get("DISPLAY"):
        pytest.skip("needs QT_QPA_PLATFORM=offscreen or a display")
    rc, _, err = _run(args, capsys)
    assert rc == code, err
    assert says in err
    if code == 0:
        assert (q / "s.png").stat().st_size > 0


SUBPROCESS_CASES = [
    ("check empty.fg.yaml", 2),
    ("simulate $E --turns 1000000000000", 2),
    ("analyze sketch.fg.yaml --games 2", 1),
    ("export adir --out o1", 2),
    ("import-geojson bad.geojson --out g.fg.yaml", 2),
]


@pytest.mark.parametrize(("args", "code"), SUBPROCESS_CASES, ids=[c[0] for c in SUBPROCESS_CASES])
def test_subprocess_exit_code(q: Path, args: str, code: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != "FIREGROUND_DEBUG"}
    proc = subprocess.run(
        [sys.executable, "-m", "fireground", *_argv(args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip()


@pytest.mark.parametrize("out", ["nodir/x/r.pdf", "adir"])
def test_analyze_bad_out_fails_before_the_games(
    q: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, out: str
) -> None:
    from fireground.engine.play import analysis

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("the Monte Carlo run started")

    monkeypatch.setattr(analysis, "analyze", no_games)
    rc, _, err = _run(f"analyze $E --games 3 --turns 1 --out {out}", capsys)
    assert rc == 2
    assert err.startswith(out)
