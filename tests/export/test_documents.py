"""Reference sheet, counters, briefing, layouts and the pack, read back from the PDFs."""

from __future__ import annotations

import copy
import dataclasses
import re
from pathlib import Path

import pytest
from export_scenarios import grid_scenario, small_scenario
from pdfread import rects
from pypdf import PdfReader

from fireground.engine.board.model import LocationValue
from fireground.engine.core.errors import UsageError
from fireground.export import layout as layout_mod
from fireground.export.games.blitz.briefing import write_briefing
from fireground.export.games.blitz.counters import (
    counter_counts,
    counter_side,
    extra_items,
    write_counters,
)
from fireground.export.games.blitz.reference import (
    Rules,
    describe,
    fill,
    value_rows,
    write_reference,
)
from fireground.export.layout import MM, LayoutError, evaluate, layout, resolved
from fireground.export.pack import KINDS, export_pack, parse_only


def text_of(path: Path) -> str:
    r = PdfReader(path, strict=True)
    return "\n".join(p.extract_text() for p in r.pages)


# -- reference sheet ----------------------------------------------------------------------
def test_reference_numbers_come_from_the_ruleset(tmp_path: Path) -> None:
    plain = text_of(write_reference(small_scenario(), tmp_path / "a.pdf"))
    assert "6+ raises it by one" in plain  # growth.on in blitz.yaml
    house = dataclasses.replace(
        small_scenario(), house_rules={"growth.on": 5, "hose.max_lengths": 9}
    )
    played = text_of(write_reference(house, tmp_path / "b.pdf"))
    assert "5★+ raises it by one" in played
    assert "Over 9★ lengths" in played
    assert "House rules in play" in played and "growth.on = 5" in played
    assert "6+ raises it by one" not in played


def test_every_reference_field_resolves() -> None:
    rules = Rules(None)
    for sec in layout("reference_text").setting("sections"):
        for line in sec.get("lines", []):
            assert "?" not in fill(line, rules), line
        if sec.get("table"):
            assert isinstance(rules.get(sec["table"]), dict), sec["table"]


def test_reference_lists_every_value_in_play(tmp_path: Path) -> None:
    text = text_of(write_reference(None, tmp_path / "r.pdf"))
    for key in ("bombing.load.6.incendiary", "rescue.search.4", "fatigue.exhausted_after"):
        assert key in text
    # each key with its words from the layout data, then its value
    assert "incendiaries in a stick, load roll 6\nbombing.load.6.incendiary\n6" in text
    assert "search roll of 4 finds\nrescue.search.4\nlocated, needs" in text


def test_every_ruleset_value_has_a_description() -> None:
    rows = value_rows(Rules(None))
    assert len(rows) > 100
    assert [k for what, k, _ in rows if what == k] == []  # a new ruleset key needs its words
    assert len({what for what, _, _ in rows}) == len(rows)  # and they tell the keys apart


def test_describe_patterns_and_fallback() -> None:
    words = {"a.b": "exact", "a.*": "any {*}", "x.*.y": "x of {*}"}
    assert describe("a.b", words) == "exact"  # an exact entry beats the pattern
    assert describe("a.c", words) == "any c"
    assert describe("x.heavy_rescue.y", words) == "x of heavy rescue"
    assert describe("a.b.c", words) == "a.b.c"  # parts must match in number
    assert describe("house.rule", words) == "house.rule"  # unknown: the key itself


def test_values_table_text_and_house_rules_come_from_the_data(tmp_path: Path, monkeypatch) -> None:
    raw = layout_mod._raw_layouts()
    text = copy.deepcopy(raw["reference_text"])
    text["settings"]["descriptions"]["growth.on"] = "the fire gets worse on a roll of"
    text["settings"]["value_names"]["heavy"] = "Heavy squad"
    monkeypatch.setattr(layout_mod, "_raw_layouts", lambda: {**raw, "reference_text": text})
    layout_mod._layout.cache_clear()
    try:
        house = dataclasses.replace(
            small_scenario(), house_rules={"growth.on": 5, "rescue.search.3": "heavy"}
        )
        printed = text_of(write_reference(house, tmp_path / "h.pdf"))
    finally:
        layout_mod._layout.cache_clear()
    assert "the fire gets worse on a roll of\ngrowth.on\n5★" in printed
    assert "search roll of 3 finds\nrescue.search.3\nHeavy squad★" in printed
    assert "search roll of 4 finds\nrescue.search.4\nHeavy squad\n" in printed
    assert "fire grows on 1d6 of" not in printed


# -- counters ------------------------------------------------------------------------------
def test_counters_sized_for_the_scale_with_all_kinds(tmp_path: Path) -> None:
    sc = small_scenario()
    path = write_counters(sc, tmp_path / "c.pdf", games=0)  # the mix estimated from the map
    r = PdfReader(path, strict=True)
    text = text_of(path)
    for word in (
        "FIRE 5",
        "DAMP 5",
        "DAMAGE 5",
        "EMBERS",
        "RUBBLE",
        "CRATER",
        "BURIED",
        "ALL",
        "CLEAR",
        "HOSE",
    ):
        assert word in text
    side = counter_side(layout("counters_page", *r.pages[0].mediabox[2:]), 10)
    assert side == pytest.approx(16 * MM)
    squares = [
        rc for rc in rects(r, r.pages[0]) if abs(rc[2] - side) < 0.01 and abs(rc[3] - side) < 0.01
    ]
    counts = counter_counts(sc, layout("counters_page", *r.pages[0].mediabox[2:]))
    expected = sum(n for key, n in counts.items() if key[0] != "hose")
    ladders = extra_items(sc, layout("counters_page", 595, 842))["ladder"]
    assert len(ladders) == 2  # E1's wheeled escape and T1's turntable; FP1 carries none
    assert len(squares) == expected + len(ladders)
    bigger = dataclasses.replace(sc, scale=dataclasses.replace(sc.scale, area_cm=15))
    assert counter_side(layout("counters_page", 595, 842), bigger.scale.area_cm) > side


def test_counter_quantities_scale_with_the_scenario() -> None:
    lay = layout("counters_page", 595, 842)
    small = small_scenario()
    few = counter_counts(small, lay)
    many = counter_counts(grid_scenario(30, 30, levels=3), lay)
    # a big city gets more fire counters than a small block: the cap (or what its start uses)
    caps = {(str(k), v): int(hi) for k, v, _s, _lo, hi in lay.setting("counters")}
    for v in range(1, 6):
        assert few[("fire", v)] <= caps[("fire", v)] <= many[("fire", v)]
    assert sum(few.values()) < sum(many.values())
    # a small block gets about one fire counter per location that can burn
    locations = sum(len(small.levels_of(a.id)) for a in small.areas if a.building)
    assert 0.8 * locations <= sum(few[("fire", v)] for v in range(1, 6)) <= 1.3 * locations + 5
    # never fewer than the start state puts on the table
    hot = dataclasses.replace(
        small,
        start=dataclasses.replace(
            small.start,
            fires=tuple(LocationValue(a.id, 0, 5) for a in small.areas if a.building),
        ),
    )
    assert counter_counts(hot, lay)[("fire", 5)] == 5
    # buried-casualty counters follow the occupants; hose strips the forces' hose
    assert few[("casualty", "")] == max(2, 4)  # small_scenario has 4 occupants
    assert few[("hose", "")] >= 4
    assert counter_counts(None, lay)[("fire", 1)] == caps[("fire", 1)]


# -- briefing and fonts -------------------------------------------------------------------
def test_briefing_contents_and_unicode_names(tmp_path: Path) -> None:
    name = "Zażółć gęślą jaźń · Ωμέγα · Москва 1941"
    sc = dataclasses.replace(small_scenario(), name=name)
    text = text_of(write_briefing(sc, tmp_path / "b.pdf"))
    assert name in text
    for part in (
        "from SW, strong",
        "Escape Carrying Unit",
        "arrives turn 4",
        "Protect Simpkin Marshall warehouse",
        "Fire 2 in S3, level 3",
        "Seed",
    ):
        assert part in text


# -- layouts -------------------------------------------------------------------------------
def test_layout_extends_and_converts_mm_last() -> None:
    lay = layout("card_sheet_bleed", 595.0, 842.0)
    assert lay.length("bleed") == pytest.approx(3 * MM)
    assert lay.length("mark_length") == pytest.approx(4 * MM)  # inherited
    assert "extends" not in resolved("card_sheet_bleed")
    card = layout("card_front")
    assert card.width == pytest.approx(63.5 * MM) and card.height == pytest.approx(88.9 * MM)
    name = card.box("name")
    # top-left layout coordinates become bottom-left PDF ones
    assert name.top == pytest.approx(card.height - 3 * MM)


def test_layout_expressions_are_arithmetic_only() -> None:
    assert evaluate("W - 2*margin", {"W": 210, "margin": 7}) == 196
    for bad in ("__import__('os')", "W.real", "unknown + 1", "1 if W else 2"):
        with pytest.raises(LayoutError):
            evaluate(bad, {"W": 1})


def test_layout_cycle_is_reported(monkeypatch) -> None:
    monkeypatch.setattr(
        layout_mod, "_raw_layouts", lambda: {"a": {"extends": "b"}, "b": {"extends": "a"}}
    )
    with pytest.raises(LayoutError, match="extends itself"):
        resolved("a")


def test_no_coordinates_in_renderers() -> None:
    """Renderers take geometry from layouts: no mm literals in the drawing modules."""
    src = Path(layout_mod.__file__).parent
    for mod in (
        "games/blitz/cards.py",
        "plans.py",
        "plansheet.py",
        "plantiles.py",
        "games/blitz/counters.py",
        "games/blitz/reference.py",
        "games/blitz/briefing.py",
        "games/blitz/turn_report.py",
        "mapdraw.py",
        "maplabels.py",
        "mapmarks.py",
        "mapview.py",
    ):
        code = (src / mod).read_text()
        assert not re.search(r"\d+(\.\d+)?\s*\*\s*MM\b", code), mod


# -- the pack ------------------------------------------------------------------------------
def test_pack_names_start_with_their_kind(tmp_path: Path) -> None:
    paths = export_pack(
        small_scenario(), tmp_path, only="plans,cards,reference,counters,briefing", paper="letter"
    )
    assert [p.name.split("-")[0] for p in paths] == [
        "plans",
        "cards",
        "reference",
        "counters",
        "briefing",
    ]
    for p in paths:
        r = PdfReader(p, strict=True)
        for page in r.pages:
            assert sorted(
                (float(page.mediabox.width), float(page.mediabox.height))
            ) == pytest.approx([612, 792], abs=0.01)


def test_only_rejects_unknown_documents() -> None:
    assert parse_only(None) == list(KINDS)
    assert parse_only("cards, plans") == ["plans", "cards"]
    with pytest.raises(UsageError, match="did you mean 'plans'"):
        parse_only("plan")
