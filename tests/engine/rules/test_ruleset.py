"""The ruleset data and house rules."""

from __future__ import annotations

import pytest

from fireground.engine.core.ruleset import RulesetError, load_ruleset, unit_types

SECTION_11 = {
    # type: (ladder ratings, pumps, water, fire teams, hose lengths, vehicle)
    "escape_carrying_unit": ([2], 4, 10, 2, 10, True),
    "general_appliance": ([1, 1], 4, 10, 3, 10, True),
    "turntable_ladder_unit": ([4], 4, 6, 2, 10, True),
    "heavy_unit": ([1, 1, 1], 1, 0, 2, 10, True),
    "small_pump_team": ([], 2, 0, 2, 6, True),
    "medium_pump": ([], 4, 0, 0, 0, False),
    "light_pump": ([], 2, 0, 0, 0, False),
    "wheelbarrow_pump": ([], 1, 0, 0, 0, False),
    "auxiliary_towing_vehicle": ([1], 0, 0, 3, 4, True),
    "hose_laying_lorry": ([], 0, 0, 1, 10, True),
    "canteen_truck": ([], 0, 0, 0, 0, True),
    "mobile_dam_unit": ([], 0, 0, 1, 0, True),
    "extra_heavy_pump": ([], 6, 0, 0, 0, True),
    "heavy_pump": ([], 4, 0, 0, 0, True),
}


def test_every_format_unit_type_is_catalogued():
    ids = [
        "escape_carrying_unit",
        "general_appliance",
        "turntable_ladder_unit",
        "heavy_unit",
        "small_pump_team",
        "medium_pump",
        "light_pump",
        "wheelbarrow_pump",
        "auxiliary_towing_vehicle",
        "hose_laying_lorry",
        "canteen_truck",
        "mobile_dam_unit",
        "extra_heavy_pump",
        "heavy_pump",
        "despatch_rider",
        "messenger_boy",
        "fire_party",
        "rescue_team",
        "heavy_rescue",
        "ambulance",
        "mortuary_van",
        "doctor",
        "officer",
    ]
    assert set(ids) <= set(unit_types())
    rules = load_ruleset()
    for t in ids:
        u = rules.units[t]
        for key in (
            "name",
            "role",
            "ladders",
            "pumps",
            "water",
            "fire_teams",
            "hose_lengths",
            "vehicle",
            "moves",
            "special",
        ):
            assert key in u, (t, key)
        assert u["moves"] in ("road", "foot", "towed", "carried")


@pytest.mark.parametrize("utype", sorted(SECTION_11))
def test_section_11_equipment(utype):
    ladders, pumps, water, teams, hose, vehicle = SECTION_11[utype]
    u = load_ruleset().units[utype]
    assert [lad["rating"] for lad in u["ladders"]] == ladders
    assert (u["pumps"], u["water"], u["fire_teams"], u["hose_lengths"], u["vehicle"]) == (
        pumps,
        water,
        teams,
        hose,
        vehicle,
    )


def test_heavy_unit_hook_ladders_and_dam():
    rules = load_ruleset()
    assert [lad["hook"] for lad in rules.units["heavy_unit"]["ladders"]] == [False, True, True]
    assert rules.units["mobile_dam_unit"]["dam_points"] in (10, 20)
    assert rules.units["canteen_truck"]["rations"] == 40


def test_dotted_access_and_numbers():
    r = load_ruleset()
    assert r["growth.on"] == 6 and r["embers.reignite_on"] == 12
    assert r["bombing.load.6"] == {"he": 3, "incendiary": 6}
    assert r["bombing.load.2.he"] == 1
    assert "spread.embers" in r and "spread.nope" not in r


def test_house_rules_override_and_do_not_leak():
    r = load_ruleset("blitz", {"growth.on": 5, "he.personnel_escape_on": 5})
    assert r["growth.on"] == 5 and r["he.personnel_escape_on"] == 5
    assert load_ruleset()["growth.on"] == 6


def test_house_rule_partial_table_entry():
    r = load_ruleset("blitz", {"bombing.load.6": {"he": 1}})
    assert r["bombing.load.6"] == {"he": 1, "incendiary": 6}


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"growt.on": 5}, "did you mean 'growth.on'"),
        ({"growth.on": "six"}, "must be int"),
        ({"growth.on": True}, "must be int"),
        ({"stores.petrol.explodes": 1}, "must be bool"),
        ({"bombing.load.6": {"gas": 1}}, "unknown key 'gas'"),
        ({"growth": 5}, "must be mapping"),
    ],
)
def test_bad_house_rules(rules, words):
    with pytest.raises(RulesetError, match=words.replace("(", r"\(")):
        load_ruleset("blitz", rules)


def test_unknown_key_read_and_unknown_ruleset():
    with pytest.raises(RulesetError, match="did you mean"):
        load_ruleset()["spread.ember"]
    with pytest.raises(RulesetError, match="unknown ruleset"):
        load_ruleset("blits")


def test_the_known_rulesets_are_the_ones_the_pack_bundles(monkeypatch) -> None:
    """core/ruleset names no game: the rulesets a scenario may name come from the v1
    game's pack (its ``rulesets`` hook), and their data from the package it gives."""
    from fireground.engine.core.game import hook
    from fireground.engine.core.packs import load_pack
    from fireground.engine.core.ruleset import bundled_rulesets, known_rulesets

    pack = load_pack("blitz")
    assert known_rulesets() == tuple(hook(pack, "rulesets")) == ("blitz",)
    package = hook(pack, "rulesets")["blitz"]
    monkeypatch.setattr(type(pack), "rulesets", {"blitz": package, "wartime": package})
    bundled_rulesets.cache_clear()
    try:
        assert known_rulesets() == ("blitz", "wartime")
    finally:
        monkeypatch.undo()
        bundled_rulesets.cache_clear()
    assert known_rulesets() == ("blitz",)
