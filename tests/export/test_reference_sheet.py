"""The quick reference: the whole turn on page 1, the rules the table needs, no internals."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from export_scenarios import small_scenario
from pypdf import PdfReader

from fireground.export.games.blitz.reference import Rules, fill, write_reference
from fireground.export.layout import layout


def _pages(path: Path) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(path).pages]


def test_the_whole_turn_is_on_the_first_side(tmp_path: Path) -> None:
    for paper in ("a4", "letter"):
        pages = _pages(write_reference(small_scenario(), tmp_path / f"r-{paper}.pdf", paper))
        first, rest = pages[0], " ".join(pages[1:])
        text = layout("reference_text")
        for sec in text.setting("quick"):
            assert " ".join(str(sec["title"]).split()) in first
        assert " ".join(str(text.setting("quick_end")).split()) in first  # its last line
        for step in range(1, 11):
            assert f"{step} ·" in first
        assert "Rules summary" in rest and "Rules summary" not in first


def test_missing_rules_are_there_and_rulings_named(tmp_path: Path) -> None:
    text = " ".join(_pages(write_reference(small_scenario(), tmp_path / "r.pdf")))
    for words in (
        "crater",  # HE on a road
        "tests again to stay",  # heat re-test
        "(R-9)",
        "(R-13)",
        "One pump feeds one hose",
        "suction pipe",
        "reaches its levels up to the ladder's rating",
        "Deploy times",
        "about 1 m above the table",  # the bomb drop with the printed squares
        "refilling at a hydrant or on any building's ground level",
        "ruling R-4",
    ):
        assert words in text, words


def test_no_program_internals_on_paper(tmp_path: Path) -> None:
    text = " ".join(_pages(write_reference(None, tmp_path / "r.pdf")))
    assert "giving up" not in text and "redrop_limit" not in text
    assert "d6 rolled to spread" not in text


def test_every_quick_field_resolves_and_follows_house_rules(tmp_path: Path) -> None:
    rules = Rules(None)
    for sec in layout("reference_text").setting("quick"):
        for line in sec.get("lines", []):
            assert "?" not in fill(line, rules), line
    house = dataclasses.replace(small_scenario(), house_rules={"fire_party.on": 5})
    first = _pages(write_reference(house, tmp_path / "h.pdf"))[0]
    assert "5★+ to embers" in first
