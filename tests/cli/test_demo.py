"""`fireground demo`: the main job writes the whole play-aid pack and prints every path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from fireground.cli import main

KINDS = ("plans", "cards", "reference", "counters", "turns", "briefing")


def test_demo_writes_and_prints_the_six_documents_and_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pack"
    assert main(["demo", "--out", str(out)]) == 0
    printed = [line.strip() for line in capsys.readouterr().out.splitlines()]
    for kind in KINDS:
        (pdf,) = out.glob(f"{kind}-*.pdf")
        assert str(pdf) in printed, f"{pdf} written but not printed"
        assert len(PdfReader(pdf, strict=True).pages) >= 1
    log = json.loads((out / "turnlog.json").read_text("utf-8"))
    assert log["fireground_log"] == 1
    assert len(log["turns"]) == 10
    assert str(out / "turnlog.json") in printed
    assert any("0 errors" in line for line in printed)
