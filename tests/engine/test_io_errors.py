"""Every refusal of the loader, with the line and column it reports."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from fireground.engine.core.errors import ScenarioError
from fireground.engine.core.yamlsafe import MAX_DEPTH, parse
from fireground.engine.scenario.io import MAX_BYTES, MAX_ERRORS, load_scenario, loads_scenario

HEAD = "fireground: 1\nruleset: blitz\n"  # two lines: bodies below start on line 3
AREA = "  - {id: R1, kind: street, polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]}\n"


def problems(src: str | bytes) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        loads_scenario(src, "t.yaml")
    return [str(d) for d in info.value.diagnostics]


def at(src: str, token: str, nth: int = 1) -> str:
    """LINE:COL of the ``nth`` occurrence of ``token`` in ``src``."""
    i = -1
    for _ in range(nth):
        i = src.index(token, i + 1)
    line = src.count("\n", 0, i) + 1
    return f"{line}:{i - (src.rfind(chr(10), 0, i) + 1) + 1}"


def refused(src: str | bytes, where: str, message: str) -> None:
    """``src`` is refused with a diagnostic at ``where`` (LINE:COL, or a token of ``src`` to
    find) containing ``message``."""
    if not re.fullmatch(r"\d+:\d+", where):
        assert isinstance(src, str)
        where = at(src, where)
    found = problems(src)
    assert any(p.startswith(f"t.yaml:{where}: ") and message in p for p in found), found


# -- YAML level ----------------------------------------------------------------------------


def test_syntax_error() -> None:
    refused(HEAD + "name: [unclosed\nturns: 3\n", "4:6", "YAML syntax error")


def test_bad_indentation() -> None:
    refused(HEAD + "scale:\n  area_cm: 10\n figure_mm: 25\n", "5:2", "YAML syntax error")


def test_alias_bomb_is_refused_in_milliseconds() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [{','.join(['*' + prev] * 9)}]")
    bomb = "\n".join(lines) + "\n"
    assert len(bomb) < 600  # the classic ~500-byte file that expands to 9**9 strings
    t0 = time.perf_counter()
    refused(bomb, "1:4", "anchors (&a) are not allowed")
    assert time.perf_counter() - t0 < 0.05


def test_alias_is_refused() -> None:
    refused(HEAD + "name: *nothing\n", "3:7", "aliases (*nothing) are not allowed")


def test_anchor_alone_is_refused() -> None:
    refused(HEAD + "scale: &s {area_cm: 10}\n", "3:8", "anchors (&s) are not allowed")


@pytest.mark.parametrize(
    ("value", "col", "tag"),
    [
        ("!!python/object/apply:os.system [echo hi]", 7, "!!python/object/apply:os.system"),
        ("!!python/name:os.system", 7, "!!python/name:os.system"),
        ("!custom x", 7, "!custom"),
        ("!!binary aGVsbG8=", 7, "!!binary"),
        ("!!set {a, b}", 7, "!!set"),
        ("!!timestamp 2001-12-14", 7, "!!timestamp"),
    ],
)
def test_non_standard_tags_are_refused(value: str, col: int, tag: str) -> None:
    refused(HEAD + f"name: {value}\n", f"3:{col}", f"YAML tag {tag} is not allowed")


def test_standard_tags_are_fine() -> None:
    s = loads_scenario(HEAD + "name: !!str 1940\nturns: !!int 12\n")
    assert (s.name, s.turns) == ("1940", 12)
    refused(HEAD + "turns: !!int twelve\n", "3:8", "'twelve' is not a valid !!int value")


def test_duplicate_keys() -> None:
    refused(HEAD + "name: a\nname: b\n", "4:1", "duplicate key 'name' (first at line 3)")
    refused(HEAD + "wind: {from: N, from: S}\n", "3:17", "duplicate key 'from'")


def test_complex_keys() -> None:
    refused(HEAD + "? [a, b]\n: 1\n", "3:3", "a key must be plain text")


def test_nesting_limit() -> None:
    ok = "x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert parse(ok, "t") is not None  # root mapping + 99 lists = 100 levels
    deep = "x: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    refused(deep, f"1:{3 + MAX_DEPTH}", f"nesting deeper than {MAX_DEPTH} levels")


def refused_inside(src: str, first: int, last: int) -> None:
    """``src`` is refused for its nesting, at a column of line 1 between ``first`` and ``last``.

    Which column depends on the libyaml build (0.2.6 caps flow nesting at 1,000 levels in
    its scanner, before the loader's own count of 100 is reached), so the guarantee tested
    is the refusal, its words and a position inside the nesting, not one column."""
    found = problems(src)
    assert len(found) == 1, found
    m = re.fullmatch(r"t\.yaml:1:(\d+): (.*)", found[0])
    assert m, found
    assert first <= int(m.group(1)) <= last, found
    assert m.group(2) == f"nesting deeper than {MAX_DEPTH} levels", found


def test_very_deep_nesting_does_not_crash() -> None:
    # yaml.compose with the C loader dies with SIGSEGV on this; the event reader stops early.
    t0 = time.perf_counter()
    refused_inside("[" * 1_000_000, MAX_DEPTH + 1, 1_000_000)
    refused_inside("x: " + "{a: " * 200_000, 3 + MAX_DEPTH, 3 + 4 * 200_000)
    refused_inside("- " * 100_000 + "x\n", 2 * MAX_DEPTH + 1, 2 * 100_000)
    assert time.perf_counter() - t0 < 1.0


def test_two_documents() -> None:
    refused(HEAD + "---\nname: b\n", "3:1", "only one YAML document per file")


# -- bytes and size ------------------------------------------------------------------------


def test_latin1_bytes_are_refused_with_their_position() -> None:
    refused(HEAD.encode() + b"name: Caf\xe9 Royal\n", "3:10", "not UTF-8 text (byte 0xe9)")


def test_binary_is_refused() -> None:
    refused(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "1:1", "not UTF-8 text (byte 0x89)")


def test_control_characters_are_refused() -> None:
    refused(HEAD + "name: a\x00b\n", "3:8", "control character U+0000")
    refused(HEAD + "name: bell\x07\n", "3:11", "control character U+0007")


def test_utf8_bom_is_accepted() -> None:
    assert loads_scenario(b"\xef\xbb\xbf" + HEAD.encode() + b"name: caf\xc3\xa9\n").name == "café"


def test_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "huge.fg.yaml"
    with open(p, "wb") as f:
        f.truncate(MAX_BYTES + 1)  # sparse: costs no disk
    t0 = time.perf_counter()
    with pytest.raises(ScenarioError, match=r"huge.fg.yaml:1:1: file too large \(20.0 MB"):
        load_scenario(p)
    assert time.perf_counter() - t0 < 0.1
    with pytest.raises(ScenarioError, match="file too large"):
        loads_scenario(b" " * (MAX_BYTES + 1))


def test_empty_and_non_mapping_files() -> None:
    refused("", "1:1", "empty file")
    refused("# only a comment\n", "1:1", "empty file")
    refused("- a\n- b\n", "1:1", "must be a mapping")
    refused("just text\n", "1:1", "must be a mapping")


# -- numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [".nan", ".NaN", ".inf", "-.Inf", "1e999"])
def test_non_finite_numbers_are_refused(bad: str) -> None:
    src = HEAD + f"areas:\n  - {{id: R1, kind: street, polygon: [[0, 0], [{bad}, 0], [1, 1]]}}\n"
    refused(src, bad, "is not a finite number")


def test_nan_as_plain_word_is_just_text() -> None:
    refused(HEAD + "turns: nan\n", "3:8", "turns: expected a whole number, got 'nan'")


# -- version -------------------------------------------------------------------------------


def test_newer_format_is_refused() -> None:
    refused("fireground: 2\nruleset: blitz\n", "1:13",
            "written by a newer fireground (format 2; this program reads up to 1)")  # fmt: skip


def test_missing_or_odd_version() -> None:
    refused("ruleset: blitz\n", "1:1", "missing 'fireground: 1'")
    refused("fireground: '1'\nruleset: blitz\n", "1:13", "must be a whole number, got '1'")
    refused("fireground: true\n", "1:13", "must be a whole number, got true")


# -- structure and types -------------------------------------------------------------------


def test_unknown_keys_with_suggestions() -> None:
    refused(HEAD + "scael: {}\n", "3:1", "unknown key 'scael' (did you mean 'scale'?)")
    refused(HEAD + "areas:\n  - {id: R1, kind: street, polgon: [[0, 0], [1, 0], [1, 1]]}\n",
            "polgon", "unknown key 'polgon' (did you mean 'polygon'?)")  # fmt: skip
    refused(HEAD + "features:\n  - {type: hydrant, area: R1, presure: 3}\n",
            "presure", "unknown key 'presure' (did you mean 'pressure'?)")  # fmt: skip
    refused(HEAD + "wind: {form: N}\n", "3:8", "unknown key 'form' (did you mean 'from'?)")


def test_missing_keys() -> None:
    refused(HEAD + "areas:\n  - {id: R1, kind: street}\n", "4:5", "missing key 'polygon'")
    refused(HEAD + "features:\n  - {area: R1}\n", "4:5", "missing key 'type'")
    refused("fireground: 1\n", "1:1", "missing key 'ruleset'")


def test_unknown_names_with_suggestions() -> None:
    refused(HEAD + "areas:\n  - {id: R1, kind: stret, polygon: [[0, 0], [1, 0], [1, 1]]}\n",
            "stret", "unknown area kind 'stret' (did you mean 'street'?)")  # fmt: skip
    refused(HEAD + "features:\n  - {type: hydrnt, area: R1}\n", "hydrnt",
            "unknown feature type 'hydrnt' (did you mean 'hydrant'?)")  # fmt: skip
    refused(HEAD + "features:\n  - {type: store, area: R1, material: petroll}\n", "petroll",
            "unknown material 'petroll' (did you mean 'petrol'?)")  # fmt: skip
    refused(HEAD + "mains: broken\n", "3:8", "unknown mains state")
    refused(HEAD + "wind: {from: sw}\n", "sw", "unknown wind direction 'sw' (did you mean 'SW'?)")
    refused(
        HEAD + "forces:\n  - {id: F, type: officer}\n", "{id: F", "needs 'area' (where it starts)"
    )
    refused(HEAD + "objectives:\n  - {type: protekt, building: b}\n", "protekt",
            "unknown objective type 'protekt' (did you mean 'protect'?)")  # fmt: skip
    refused(
        "fireground: 1\nruleset: blits\n", "2:10", "unknown ruleset 'blits' (did you mean 'blitz'?)"
    )
    refused(HEAD + "areas:\n" + AREA + "forces:\n  - {id: E1, type: fire_pary, area: R1}\n",
            "fire_pary", "unknown unit type 'fire_pary' (did you mean 'fire_party'?)")  # fmt: skip


def test_wrong_types() -> None:
    refused(HEAD + "turns: ten\n", "3:8", "turns: expected a whole number, got 'ten'")
    refused(HEAD + "turns: 4.5\n", "3:8", "turns: expected a whole number, got 4.5")
    refused(HEAD + "bombing: yes\n", "3:10", "bombing: expected true or false, got 'yes'")
    refused(HEAD + "buildings:\n  - {id: b, levels: true}\n", "true",
            "levels: expected a whole number, got true")  # fmt: skip
    refused(HEAD + "areas: square\n", "3:8", "areas: expected a list, got 'square'")
    refused(HEAD + "scale: 10\n", "3:8", "scale: expected a mapping of keys, got 10")
    refused(HEAD + "areas:\n  - {id: R1, kind: street, polygon: [[0, 0], [1, a], [1, 1]]}\n",
            "a]", "expected a number, got 'a'")  # fmt: skip
    refused(HEAD + "areas:\n  - {id: 'a b', kind: street, polygon: [[0, 0], [1, 0], [1, 1]]}\n",
            "'a b'", "'a b' is not a valid id")  # fmt: skip


def test_polygons() -> None:
    refused(HEAD + "areas:\n  - {id: R1, kind: street, polygon: [[0, 0], [1, 0]]}\n",
            "[[0, 0], [1, 0]]", "a polygon needs at least 3 points, got 2")  # fmt: skip
    refused(HEAD + "areas:\n  - {id: R1, kind: street, polygon: [[0, 0], [1, 0, 2], [1, 1]]}\n",
            "[1, 0, 2]", "a point is [x, y], got 3 numbers")  # fmt: skip


@pytest.mark.parametrize(
    ("body", "where", "message"),
    [
        ("turns: 501\n", "3:8", "turns must be 1..500, got 501"),
        ("turns: 0\n", "3:8", "turns must be 1..500, got 0"),
        ("buildings:\n  - {id: b, levels: 21}\n", "21}", "levels must be 1..20, got 21"),
        ("features:\n  - {type: hydrant, area: R1, pressure: 21}\n", "21}",
         "pressure must be 1..20, got 21"),
        ("features:\n  - {type: water, area: R1, points: 0}\n", "0}",
         "points must be 1..100000, got 0"),
        ("start:\n  fires: [{area: R1, fire: 6}]\n", "6}", "fire must be 1..5, got 6"),
        ("start:\n  damp: [{area: R1, damp: -1}]\n", "-1}", "damp must be 0..5, got -1"),
        ("start:\n  damage: [{area: R1, damage: 0}]\n", "0}", "damage must be 1..5, got 0"),
        ("scale: {area_cm: 0}\n", "0}", "area_cm must be more than 0"),
        ("forces:\n  - {id: F, type: fire_party, area: R1, arrives: 0}\n", "0}",
         "arrives must be at least 1, got 0"),
    ],
)  # fmt: skip
def test_out_of_range(body: str, where: str, message: str) -> None:
    refused(HEAD + body, where, message)


# -- references ----------------------------------------------------------------------------

MAP = (
    HEAD
    + """\
buildings:
  - {id: simpkin, levels: 2}
  - {id: simpkin, levels: 3}
areas:
  - {id: S1, kind: building, building: simpkn, polygon: [[0, 0], [1, 0], [1, 1]]}
  - {id: R1, kind: street, polygon: [[0, 0], [1, 0], [1, 1]]}
  - {id: R1, kind: street, building: simpkin, polygon: [[0, 0], [1, 0], [1, 1]]}
features:
  - {type: stairwell, area: R2}
  - {type: entry, area: R1, name: gate}
  - {type: entry, area: R1, name: gate}
start:
  fires: [{area: R1, level: 1, fire: 2}]
  rubble: [S2]
forces:
  - {id: E1, type: fire_party, entry: gat}
  - {id: E2, type: fire_party, area: R1, entry: gate}
  - {id: E3, type: fire_party, entry: gate, arrives: 99}
objectives:
  - {type: protect, building: simpkinn}
  - {type: protect}
"""
)


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (at(MAP, "simpkin, levels: 3"), "duplicate building id 'simpkin' (first in item 1)"),
        (at(MAP, "simpkn"), "unknown building 'simpkn' (did you mean 'simpkin'?)"),
        (at(MAP, "R1, kind: street, building"), "duplicate area id 'R1'"),
        (at(MAP, "simpkin, polygon"), "a street area has no building"),
        (at(MAP, "R2"), "unknown area 'R2' (did you mean 'R1'?)"),
        (at(MAP, "gate}", 2), "duplicate entry name 'gate'"),
        (at(MAP, "1, fire: 2"), "level 1 does not exist in area 'R1' (levels 0..0)"),
        (at(MAP, "S2"), "unknown area 'S2' (did you mean 'S1'?)"),
        (at(MAP, "gat}"), "no entry feature named 'gat' (did you mean 'gate'?)"),
        (at(MAP, "{id: E2"), "unit 'E2' has both 'area' and 'entry': give one"),
        (at(MAP, "99"), "arrives on turn 99, after the last turn (40)"),
        (at(MAP, "simpkinn"), "unknown building 'simpkinn' (did you mean 'simpkin'?)"),
        (at(MAP, "{type: protect}"), "protect needs either 'building' or 'area'"),
    ],
)
def test_dangling_references_and_duplicates(where: str, message: str) -> None:
    refused(MAP, where, message)


def test_levels_exist_with_basements() -> None:
    src = HEAD + (
        "buildings:\n  - {id: b, levels: 2, basement: true}\n"
        "areas:\n  - {id: S1, kind: building, building: b, polygon: [[0, 0], [1, 0], [1, 1]]}\n"
    )
    ok = src + "start:\n  fires: [{area: S1, level: -1, fire: 1}, {area: S1, level: 1, fire: 1}]\n"
    assert len(loads_scenario(ok).start.fires) == 2
    refused(src + "features:\n  - {type: store, area: S1, level: 2, material: oil}\n",
            "2, material", "level 2 does not exist in area 'S1' (levels -1..1)")  # fmt: skip
    refused(src + "features:\n  - {type: occupants, area: S1, level: -2, count: 1}\n",
            "-2", "level -2 does not exist")  # fmt: skip


def test_all_problems_are_reported_sorted_and_capped() -> None:
    found = problems(HEAD + "turns: 0\nmains: off\nbombing: 3\n")
    assert [p.split(": ", 1)[0] for p in found] == ["t.yaml:3:8", "t.yaml:4:8", "t.yaml:5:10"]
    many = (
        HEAD
        + "areas:\n"
        + "".join(
            f"  - {{id: A{i}, kind: stret, polygon: [[0, 0], [1, 0], [1, 1]]}}\n" for i in range(80)
        )
    )
    found = problems(many)
    assert len(found) == MAX_ERRORS + 1
    assert found[-1] == f"t.yaml: ... and {80 - MAX_ERRORS} more problems"


def test_errors_name_the_file(tmp_path: Path) -> None:
    p = tmp_path / "x.fg.yaml"
    p.write_text(HEAD + "turns: 0\n")
    with pytest.raises(ScenarioError, match=rf"^{p}:3:8: turns must be 1..500"):
        load_scenario(p)
