"""Scenario files: round trip, determinism, source positions, atomic saves, migration."""

from __future__ import annotations

import errno
import json
import os
import stat
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from strategies import scenarios

from fireground.engine.board.model import Area, AreaKind, Building, Scenario
from fireground.engine.core.errors import ScenarioError
from fireground.engine.core.yamlsafe import parse
from fireground.engine.scenario import migrate
from fireground.engine.scenario.emit import dump_scenario, text
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import json_schema, load_scenario, loads_scenario, save_scenario

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = """\
fireground: 1
name: "Paternoster Row"
ruleset: blitz
buildings:
  - {id: simpkin, levels: 4}
areas:
  - id: S1
    kind: building
    building: simpkin
    polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]
  - id: NO
    kind: street
    polygon: [[0, -10], [10, -10], [10, 0], [0, 0]]
features:
  - {type: entry, area: NO, name: "from Cheapside"}
start:
  fires: [{area: S1, level: 3, fire: 2}]
forces:
  - {id: E1, type: escape_carrying_unit, entry: "from Cheapside", arrives: 4}
"""


# -- round trip and determinism ----------------------------------------------------------


@settings(max_examples=150)
@given(scenarios())
def test_round_trip_of_generated_scenarios(s: Scenario) -> None:
    out = dump_scenario(s)
    back = loads_scenario(out)
    assert back == s
    assert dump_scenario(back) == out  # deterministic: same scenario, same text


def test_example_files_round_trip() -> None:
    for path in blitz_examples(REPO / "examples"):
        s = load_scenario(path)
        assert loads_scenario(dump_scenario(s)) == s, path.name


def test_dump_is_byte_identical_for_equal_scenarios() -> None:
    a = loads_scenario(EXAMPLE)
    b = loads_scenario(EXAMPLE.encode())
    assert a == b and a is not b
    assert dump_scenario(a).encode() == dump_scenario(b).encode()


def test_dump_layout() -> None:
    out = dump_scenario(loads_scenario(EXAMPLE))
    lines = out.splitlines()
    assert lines[0].startswith("# yaml-language-server: $schema=")
    assert lines[1] == "fireground: 1"
    assert "    polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]" in lines
    assert '  - id: "NO"' in lines  # a YAML 1.1 boolean word is quoted
    keys = [ln.split(":")[0] for ln in lines if ln and not ln.startswith((" ", "#"))]
    assert keys == ["fireground", "name", "ruleset", "scale", "turns", "wind", "bombing",
                    "mains", "buildings", "areas", "features", "start", "forces"]  # fmt: skip


def test_integral_floats_print_as_ints_and_others_exactly() -> None:
    s = loads_scenario(EXAMPLE)
    a = replace(s.areas[0], polygon=((0.0, 0.0), (0.1, 0.0), (0.1, 1 / 3), (0.0, 1e-7)))
    out = dump_scenario(s.with_areas((a, s.areas[1])))
    assert "[[0, 0], [0.1, 0], [0.1, 0.3333333333333333], [0, 1e-07]]" in out
    assert loads_scenario(out).areas[0].polygon == a.polygon


@pytest.mark.parametrize(
    "word", ["NO", "no", "On", "off", "YES", "y", "n", "true", "Null", "~", "012", "1e3", "0x1F",
             "-5", ".5", "", " lead", "a: b", "x #y", "[a]", "it's", "tab\t", "\u2028", "\x85",
             "\ufeff", "é", "\U0001f525", "a  b", "*x", "&y", "!z", "%p", "@q", "`r`", "|s", ">t"],
)  # fmt: skip
def test_text_scalars_read_back_as_the_same_string(word: str) -> None:
    assert parse(f"k: {text(word)}\n", "t")["k"] == word
    assert parse(f"k: [{text(word)}]\n", "t")["k"] == [word]  # flow context too


def test_yaml11_words_stay_strings_when_loading() -> None:
    s = loads_scenario(EXAMPLE.replace("id: NO", "id: on").replace("area: NO", "area: on"))
    assert s.areas[1].id == "on"
    data = parse("a: yes\nb: No\nc: true\nd: FALSE\ne: 012\nf: 1:20\ng: 2024-01-01\n", "t")
    assert data == {"a": "yes", "b": "No", "c": True, "d": False, "e": 12, "f": "1:20",
                    "g": "2024-01-01"}  # fmt: skip


def test_numeric_looking_ids_keep_their_text() -> None:
    src = EXAMPLE.replace("id: S1", "id: 012").replace("area: S1", "area: 012")
    s = loads_scenario(src)
    assert s.areas[0].id == "012"
    assert s.start.fires[0].area == "012"
    assert loads_scenario(dump_scenario(s)) == s


def test_description_as_literal_block() -> None:
    s = replace(loads_scenario(EXAMPLE), description="Line one.\n\nLine three: with colon.\n")
    out = dump_scenario(s)
    assert "description: |\n  Line one.\n\n  Line three: with colon.\n" in out
    assert loads_scenario(out).description == s.description


# -- source positions --------------------------------------------------------------------


def test_source_map_gives_line_and_column() -> None:
    s = loads_scenario(EXAMPLE, "ex.fg.yaml")
    assert s.source_file == "ex.fg.yaml"
    assert s.source[("areas", 0)] == (7, 5)
    assert s.source[("areas", 1, "polygon")] == (13, 14)
    assert s.source[("features", 0)] == (15, 5)
    assert s.source[("start", "fires", 0)] == (17, 11)
    assert s.source[("forces", 0)] == (19, 5)
    assert s.line_of("buildings", 0) == 5
    assert s == replace(s, source={})  # positions never take part in equality


def test_load_scenario_reads_a_path(tmp_path: Path) -> None:
    p = tmp_path / "a.fg.yaml"
    p.write_text(EXAMPLE, encoding="utf-8")
    s = load_scenario(p)
    assert s.source_file == str(p)
    assert s.areas[1].id == "NO"


# -- atomic save -------------------------------------------------------------------------


def test_save_keeps_mode_and_backup(tmp_path: Path) -> None:
    p = tmp_path / "a.fg.yaml"
    p.write_text("old content\n")
    p.chmod(0o640)
    s = loads_scenario(EXAMPLE)
    save_scenario(s, p)
    assert stat.S_IMODE(p.stat().st_mode) == 0o640  # mkstemp's 0600 is not kept
    assert (tmp_path / "a.fg.yaml.bak").read_text() == "old content\n"
    assert load_scenario(p) == s
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.fg.yaml", "a.fg.yaml.bak"]
    save_scenario(replace(s, name="second"), p)  # the .bak now holds the first save
    assert load_scenario(tmp_path / "a.fg.yaml.bak") == s


def test_save_new_file_uses_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        save_scenario(loads_scenario(EXAMPLE), tmp_path / "new.fg.yaml")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.fg.yaml").stat().st_mode) == 0o644
    assert not (tmp_path / "new.fg.yaml.bak").exists()


@pytest.mark.parametrize("failing", ["write", "fsync"])
def test_full_disk_leaves_the_original_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    p = tmp_path / "a.fg.yaml"
    p.write_text(EXAMPLE)

    def enospc(*args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, failing, enospc)
    with pytest.raises(OSError) as info:
        save_scenario(replace(loads_scenario(EXAMPLE), name="new"), p)
    monkeypatch.undo()
    assert info.value.errno == errno.ENOSPC
    assert info.value.filename == str(p.resolve())
    assert p.read_text() == EXAMPLE
    assert [x.name for x in tmp_path.iterdir()] == ["a.fg.yaml"]  # no temp file left


def test_save_through_a_symlink_updates_the_target(tmp_path: Path) -> None:
    real = tmp_path / "real.fg.yaml"
    real.write_text(EXAMPLE)
    link = tmp_path / "link.fg.yaml"
    link.symlink_to(real)
    save_scenario(replace(loads_scenario(EXAMPLE), name="via link"), link)
    assert link.is_symlink()
    assert load_scenario(real).name == "via link"


# -- migration ---------------------------------------------------------------------------

V0 = """\
fireground: 0
title: Old style
ruleset: blitz
map:
  - {id: R1, kind: street, polygon: [[0, 0], [10, 0], [10, 10], [0, 10]]}
"""


def _fake_v0_to_v1(data: dict[str, object]) -> dict[str, object]:
    data["name"] = data.pop("title")
    data["areas"] = data.pop("map")
    return data


def test_older_format_migrates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(migrate.STEPS, 0, _fake_v0_to_v1)
    s = loads_scenario(V0)
    assert s.name == "Old style"
    assert s.areas == (Area("R1", AreaKind.STREET, ((0, 0), (10, 0), (10, 10), (0, 10))),)
    assert s.version == 1
    assert s.source[("areas", 0)] == (5, 5)  # positions survive a migration that moves keys


def test_older_format_without_migration_is_refused() -> None:
    assert 0 not in migrate.STEPS
    with pytest.raises(ScenarioError, match=r"^v0:1:13: format 0 cannot be read"):
        loads_scenario(V0, "v0")


def test_migration_registry_refuses_a_second_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrate, "STEPS", {})
    migrate.step(0)(_fake_v0_to_v1)
    with pytest.raises(ValueError, match="already registered"):
        migrate.step(0)(_fake_v0_to_v1)


def test_a_broken_migration_step_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(migrate.STEPS, 0, lambda d: d["missing"])
    with pytest.raises(ScenarioError, match=r"v0:1:13: cannot migrate from format 0"):
        loads_scenario(V0, "v0")


# -- schema ------------------------------------------------------------------------------


def test_committed_schema_is_current() -> None:
    committed = REPO / "docs" / "scenario.schema.json"
    generated = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
    assert committed.read_text(encoding="utf-8") == generated, (
        "docs/scenario.schema.json is stale: run `fireground schema > docs/scenario.schema.json`"
    )


def test_schema_is_draft07_with_local_refs() -> None:
    schema = json_schema()
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert "$defs" not in json.dumps(schema)
    refs = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                refs.append(node["$ref"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    assert refs and all(r.startswith("#/definitions/") for r in refs)
    assert all(r.removeprefix("#/definitions/") in schema["definitions"] for r in refs)
    assert schema["additionalProperties"] is False
    assert (
        "escape_carrying_unit" in schema["definitions"]["ForceModel"]["properties"]["type"]["enum"]
    )


def test_examples_validate_against_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    for path in blitz_examples(REPO / "examples"):
        data = json.loads(json.dumps(parse(path.read_text(encoding="utf-8"), str(path))))
        jsonschema.Draft7Validator(schema).validate(data)


# -- speed -------------------------------------------------------------------------------


def big_scenario_text(n: int, levels: int = 3) -> str:
    """A grid of n areas, half of them one-building-each: the shape of a city file."""
    lines = ["fireground: 1", "name: big", "ruleset: blitz", "buildings:"]
    nb = n // 2
    lines += [f"  - {{id: b{b}, levels: {levels}}}" for b in range(nb)]
    lines.append("areas:")
    for i in range(n):
        x, y = (i % 100) * 10, (i // 100) * 10
        kind = f"building\n    building: b{i}" if i < nb else "street"
        lines.append(
            f"  - id: A{i}\n    kind: {kind}\n"
            f"    polygon: [[{x}, {y}], [{x + 10}, {y}], [{x + 10}, {y + 10}], [{x}, {y + 10}]]"
        )
    lines.append("features:")
    lines += [f"  - {{type: stairwell, area: A{i}}}" for i in range(0, nb, 10)]
    return "\n".join(lines) + "\n"


def test_loading_5000_areas_is_fast() -> None:
    data = big_scenario_text(5000).encode()
    t0 = time.perf_counter()
    s = loads_scenario(data)
    elapsed = time.perf_counter() - t0
    assert len(s.areas) == 5000
    # ~0.5 s here; the bound leaves room for a busy CI machine shared by many jobs.
    assert elapsed < 6.0, f"loading 5,000 areas took {elapsed:.2f} s"


def test_default_scenario_round_trips() -> None:
    s = Scenario(buildings=(Building("b"),))
    assert loads_scenario(dump_scenario(s)) == s
