"""``fireground sweep`` on the command line: the table, JSON, the PDF report, the progress
bar, and bad ``--vary`` keys and values (exit 2, a clear message, no traceback)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fireground.cli import main

REPO = Path(__file__).resolve().parents[2]
STEPNEY = str(REPO / "examples" / "stepney.fg.yaml")
pypdf = pytest.importorskip("pypdf")

SMALL = ["--games", "4", "--turns", "3", "--seed", "5"]


@pytest.fixture(autouse=True)
def _one_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIREGROUND_WORKERS", "1")
    monkeypatch.delenv("FIREGROUND_DEBUG", raising=False)


def test_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sweep", STEPNEY, "--vary", "growth.on=4,6", "--vary", "wind.strong=false,true"]
    assert main([*argv, *SMALL]) == 0
    text = capsys.readouterr().out
    assert "4 variants x 4 games, seed 5, the same seeds for every variant (local)" in text
    assert "[1] protect The Rose and Crown" in text
    assert "growth.on  wind.strong  [1]" in text
    assert "closest to 50%:" in text and "every objective at once:" in text
    assert main([*argv, *SMALL, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["vary"] == ["growth.on", "wind.strong"]
    assert [v["values"] for v in data["variants"]] == [
        {"growth.on": "4", "wind.strong": "false"},
        {"growth.on": "4", "wind.strong": "true"},
        {"growth.on": "6", "wind.strong": "false"},
        {"growth.on": "6", "wind.strong": "true"},
    ]
    for v in data["variants"]:
        for o in v["objectives"]:
            assert o["games"] == 4 and o["low"] <= o["chance"] <= o["high"]
            assert o["met"] == round(o["chance"] * 4)


def test_pdf_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sweep.pdf"
    argv = ["sweep", STEPNEY, "--vary", "start.fires=1,2,3", "--vary", "forces.GA1.count=0,1"]
    assert main([*argv, *SMALL, "--out", str(out)]) == 0
    assert "report written to" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["sweep.pdf"]  # no temporary file left
    reader = pypdf.PdfReader(str(out))
    every = "\n".join(p.extract_text() for p in reader.pages)
    assert "Balance sweep: Stepney terrace" in every
    assert "Chance met against start.fires" in every
    assert "Chance met against forces.GA1.count" in every
    assert "start.fires=2, forces.GA1.count=0" in every
    assert "protect The Rose and Crown" in every


def test_progress_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["sweep", STEPNEY, "--vary", "growth.on=5,6", *SMALL, "--json"]) == 0
    assert "sweep [" in err.getvalue() and "8/8 games\n" in err.getvalue()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--vary", "growth.onn=5"], "--vary growth.onn=5: unknown rule 'growth.onn'"),
        (["--vary", "forces.GA9.count=1,2"], "--vary forces.GA9.count=1: no unit or unit type"),
        (["--vary", "wind.strong"], "--vary wind.strong: expected KEY=V1,V2"),
        (["--vary", "start.fires=2,9"], "--vary start.fires=9: 9 is out of range (0 to 5)"),
        (["--vary", "turns=5", "--vary", "turns=6"], "the key is varied twice"),
        ([], "give at least one --vary"),
        (["--vary", "growth.on=5", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_vary_is_usage_error(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sweep", STEPNEY, *args]) == 2
    err = capsys.readouterr().err
    assert says in err
    assert err.startswith(STEPNEY) or err.startswith("fireground sweep:")
    assert "Traceback" not in err


def test_bad_vary_in_a_real_process_has_no_traceback() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "fireground", "sweep", STEPNEY, "--vary", "mains=leaky"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2
    assert r.stderr.strip() == f"{STEPNEY}: --vary mains=leaky: mains is working or failed"


def test_unreachable_scheduler_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setenv("FIREGROUND_DASK_TIMEOUT", "2")
    rc = main(
        ["sweep", STEPNEY, "--vary", "growth.on=5", *SMALL, "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert rc == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
