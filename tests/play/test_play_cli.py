"""``fireground play``: the game file, turn by turn against ``simulate``, undo, replay,
orders at the table and bad game files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fireground.cli import main
from fireground.engine.games.blitz.orders.check import Order
from fireground.engine.play.gamefile import dump_game, load_game, loads_game
from fireground.engine.play.table import RollRequest, start_game
from fireground.engine.scenario.io import load_scenario

REPO = Path(__file__).resolve().parents[2]
ROW = REPO / "examples" / "paternoster.fg.yaml"
SEED = 11


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def row() -> object:
    return load_scenario(ROW)


def test_three_table_turns_equal_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "sim.json"
    rc, _, err = run(["simulate", str(ROW), "--turns", "3", "--seed", str(SEED),
                      "--log", str(log)], capsys)  # fmt: skip
    assert rc == 0, err
    turns = json.loads(log.read_text())["turns"]
    game = tmp_path / "g.fgame.yaml"
    rc, out, err = run(["play", "start", str(ROW), "--out", str(game), "--seed", str(SEED)], capsys)
    assert rc == 0, err
    assert "ready for turn 1" in out
    for i in range(3):
        rc, out, err = run(["play", "turn", str(game)], capsys)
        assert rc == 0, err
        assert out.startswith(f"turn {i + 1}: ")
        rc, out, err = run(["play", "show", str(game), "--json"], capsys)
        assert rc == 0, err
        shown = json.loads(out)
        assert shown["turn"] == i + 1 and shown["seed"] == SEED
        sim_state = turns[i]["state"]
        assert set(shown["state"]) == set(sim_state)
        for key in sim_state:  # field by field, so a failure names the field
            assert shown["state"][key] == sim_state[key], (i + 1, key)
        # every roll the simulation made, in order, is in the game file's record
        tg = load_game(game)
        sim_rolls = [e for e in turns[i]["events"] if e.get("dice") or "point" in e]
        assert tg.turns[i].rolls == sim_rolls
    assert json.loads(log.read_text())["score"] == shown["score"]


def _delta(out: str, head: str) -> dict[str, list[str]]:
    """The delta lines printed after ``head``, by place."""
    lines = out.split(head + "\n", 1)[1].splitlines()
    return {p: w.split("; ") for p, w in (ln.strip().split(": ", 1) for ln in lines)}


def test_undo_then_turn_gives_the_same_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "g.fgame.yaml"
    assert run(["play", "start", str(ROW), "--out", str(game), "--seed", "3"], capsys)[0] == 0
    texts = [game.read_bytes()]
    outs = []
    for _ in range(3):
        rc, out, _ = run(["play", "turn", str(game)], capsys)
        assert rc == 0
        outs.append(out)
        texts.append(game.read_bytes())
    rc, out, _ = run(["play", "undo", str(game)], capsys)
    assert rc == 0 and "turn 3 taken back" in out
    assert game.read_bytes() == texts[2]
    assert Path(str(game) + ".bak").read_bytes() == texts[3]  # the undone game is kept
    # what to put back on the table: turn 3's fire changes, the other way round
    forward, back = _delta(outs[2], "on the table:"), _delta(out, "to put the table back:")
    fire_changes = 0
    for where, changes in forward.items():
        for change in changes:
            m = re.fullmatch(r"fire (\d) → (\d)", change)
            if m:
                assert f"fire {m[2]} → {m[1]}" in back[where]
                fire_changes += 1
            elif change.startswith("new fire "):
                assert f"fire out (was {change[9:]})" in back[where]
                fire_changes += 1
    assert fire_changes > 0
    rc, out3, _ = run(["play", "turn", str(game)], capsys)
    assert rc == 0 and out3 == outs[2]
    assert game.read_bytes() == texts[3]
    # undo to the start, and once more: nothing to undo
    for _ in range(3):
        assert run(["play", "undo", str(game)], capsys)[0] == 0
    assert game.read_bytes() == texts[0]
    rc, _, err = run(["play", "undo", str(game)], capsys)
    assert rc == 2 and "nothing to undo" in err


def test_replaying_a_game_file_is_byte_identical(row: object) -> None:
    tg = start_game(row, 21)  # type: ignore[arg-type]
    states = []
    for _ in range(4):
        tg.play()
        states.append(json.dumps(tg.state_log(), sort_keys=True))
    text = dump_game(tg)
    again = loads_game(text, "g.fgame.yaml")
    assert dump_game(again) == text
    assert [json.dumps(t.log.state, sort_keys=True) for t in again.turns if t.log] == states


def test_orders_at_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.fgame.yaml"
    assert run(["play", "start", str(ROW), "--out", str(game), "--seed", "4"], capsys)[0] == 0
    for _ in range(2):
        assert run(["play", "turn", str(game)], capsys)[0] == 0
    orders = tmp_path / "orders.yaml"
    orders.write_text("orders:\n  - {turn: 3, unit: OFF, order: move, to: ROW10}\n"
                      "  - {turn: 3, unit: DR1, order: move, to: BK4}\n")  # fmt: skip
    rc, out, err = run(["play", "turn", str(game), "--orders", str(orders)], capsys)
    assert rc == 0, err
    assert "2 orders (1 refused)" in out
    assert "DR1 move: §7: vehicles drive on streets only" in out
    tg = load_game(game)
    assert [o["unit"] for o in tg.turns[2].orders] == ["OFF", "DR1"]
    assert tg.game.state.units["OFF"].loc == ("ROW10", 0)
    # the same turn without the orders: the officer stays where standing orders put it
    rc, _, _ = run(["play", "undo", str(game)], capsys)
    assert rc == 0
    assert run(["play", "turn", str(game)], capsys)[0] == 0
    assert load_game(game).game.state.units["OFF"].loc != ("ROW10", 0)


def test_an_order_for_another_turn_is_refused_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "g.fgame.yaml"
    assert run(["play", "start", str(ROW), "--out", str(game)], capsys)[0] == 0
    before = game.read_bytes()
    orders = tmp_path / "orders.yaml"
    orders.write_text("orders:\n  - {turn: 1, unit: OFF, order: rest}\n"
                      "  - {turn: 4, unit: OFF, order: rest}\n")  # fmt: skip
    rc, _, err = run(["play", "turn", str(game), "--orders", str(orders)], capsys)
    assert rc == 2
    assert err.strip() == f"{orders}:3:5: an order for turn 4, but the game plays turn 1"
    assert game.read_bytes() == before


def test_start_refuses_to_overwrite_a_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "g.fgame.yaml"
    game.write_text("a game in progress")
    rc, _, err = run(["play", "start", str(ROW), "--out", str(game)], capsys)
    assert rc == 2 and "already exists" in err
    assert game.read_text() == "a game in progress"


def test_manual_rolls_are_recorded_and_replayed(row: object) -> None:
    tg = start_game(row, 8)  # type: ignore[arg-type]
    auto = start_game(row, 8)  # type: ignore[arg-type]
    asked: list[RollRequest] = []

    def umpire(req: RollRequest) -> list[int] | None:
        asked.append(req)
        if req.index == 0:
            return [1] * req.dice
        return None

    rec = tg.play([], umpire)
    ref = auto.play()
    assert len(asked) == len(rec.rolls)
    assert [r.index for r in asked] == list(range(len(asked)))
    assert rec.rolls[0]["manual"] is True and rec.rolls[0]["dice"] == [1] * asked[0].dice
    assert all("manual" not in r for r in rec.rolls[1:])
    # the program's own rolls draw the same stream whether or not the umpire rolled one
    assert rec.rolls[1]["dice"] == ref.rolls[1]["dice"]
    text = dump_game(tg)
    assert '"manual":true' in text
    again = loads_game(text, "g.fgame.yaml")
    assert dump_game(again) == text
    assert again.turns[0].rolls[0]["manual"] is True


def test_manual_rolls_from_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    game = tmp_path / "g.fgame.yaml"
    assert run(["play", "start", str(ROW), "--out", str(game), "--seed", "2"], capsys)[0] == 0
    # first roll: a typo, then a 6; second: Enter (the program rolls); then auto for the rest
    monkeypatch.setattr("sys.stdin", io.StringIO("9\n6\n\nauto\n"))
    rc, out, err = run(["play", "turn", str(game), "--manual"], capsys)
    assert rc == 0, err
    first = load_game(game).turns[0]
    assert "roll 1: spread BB4 level 2 → BB2 level 2: 1 die, needs ≤ 3? " in err
    assert "type 1 number from 1 to 6" in err
    assert "roll 2: spread BB4 level 2 → BB3 level 2" in err
    assert "roll 3:" in err and "roll 4:" not in err  # auto: the program rolls the rest
    assert first.rolls[0]["rule"] == "spread" and first.rolls[0]["dice"] == [6]
    assert first.rolls[0]["manual"] is True
    assert sum(1 for r in first.rolls if r.get("manual")) == 1
    assert "(1 at the table)" in out


def test_roll_labels_name_the_roll_and_the_dice_needed() -> None:
    spread = RollRequest(0, "spread", "<=2", 1, -1, {"from": {"area": "H3", "level": 1},
                                                   "to": {"area": "H4", "level": 1}})  # fmt: skip
    assert spread.label() == "spread H3 level 1 → H4 level 1: 1 die, needs ≤ 3"
    growth = RollRequest(1, "growth", ">=6", 1, 1, {"at": {"area": "J4", "level": 0}})
    assert growth.label() == "growth J4: 1 die, needs ≥ 5"
    never = RollRequest(2, "spread", "<=2", 1, 3, {"at": {"area": "J4", "level": 0}})
    assert never.label().endswith("needs ≤ -1 (cannot succeed)")
    heat = RollRequest(3, "heat", ">=2", 1, 1, {"at": {"area": "J4", "level": 2}, "unit": "E1.1"})
    assert heat.label() == "heat J4 level 2 E1.1: 1 die, needs ≥ 1 (cannot fail)"


# -- bad game files -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def played(row: object) -> str:
    tg = start_game(row, 6)  # type: ignore[arg-type]
    tg.play([Order("OFF", "rest")])
    tg.play()
    return dump_game(tg)


def _line_of(text: str, needle: str, nth: int = 0) -> int:
    lines = [i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln]
    return lines[nth]


def test_a_changed_roll_is_refused_at_its_line(
    played: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _line_of(played, '"rule":"bomb_run"', 1)  # turn 2's bomb run
    lines = played.splitlines(keepends=True)
    old = lines[line - 1]
    d = json.loads(old.split("- ", 1)[1])
    d["dice"] = [7 - v for v in d["dice"]]
    lines[line - 1] = old.split("- ", 1)[0] + "- " + json.dumps(d, separators=(",", ":")) + "\n"
    bad = tmp_path / "bad.fgame.yaml"
    bad.write_text("".join(lines))
    rc, _, err = run(["play", "show", str(bad)], capsys)
    assert rc == 2
    n = sum(1 for ln in lines[_line_of(played, "- turn: 2") : line] if ln.startswith("  - {"))
    assert err.startswith(f"{bad}:{line}:5: turn 2 does not replay: roll {n} comes out as ")
    assert '"rule":"bomb_run"' in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (("fireground_game: 1", "fireground_game: 2"), "fireground_game", "written by a newer"),
        (("seed: 6", "seed: -1"), "seed:", "seed must be a whole number"),
        (("- turn: 2", "- turn: 5"), "- turn: 5", "turn 5 where turn 2 belongs"),
        (("  state: sha256:", "  state: md5:"), "state: md5:", "sha256: digest"),
        (("turn: 2\n", "turn: 3\n"), "turn: 3", "turn 3 but 2 turns are recorded"),
        (("  ruleset: blitz", "  ruleset: chess"), "ruleset: chess", "ruleset"),
        (('"kind":"rest"', '"kind":"dance"'), '"kind":"dance"', "unknown order kind"),
        (('"kind":"rest"', '"kind":"rest","why":"x"'), '"why":"x"', "unknown key 'why'"),
    ],
)
def test_bad_game_files_name_the_place(
    played: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: tuple[str, str],
    where: str,
    message: str,
) -> None:
    assert change[0] in played
    text = played.replace(change[0], change[1], 1)
    bad = tmp_path / "bad.fgame.yaml"
    bad.write_text(text)
    rc, _, err = run(["play", "turn", str(bad)], capsys)
    assert rc == 2, err
    line = _line_of(text, where)
    assert err.startswith(f"{bad}:{line}:"), err
    assert message in err
    assert bad.read_text() == text  # a refused file is never rewritten


def test_a_changed_state_digest_is_refused(played: str, tmp_path: Path) -> None:
    from fireground.engine.core.errors import ScenarioError

    i = played.index("state: sha256:") + len("state: sha256:")
    flipped = "0" if played[i] != "0" else "1"
    text = played[:i] + flipped + played[i + 1 :]
    with pytest.raises(ScenarioError) as e:
        loads_game(text, "g")
    assert "turn 1 does not replay: the state differs" in str(e.value)
    assert str(e.value).startswith(f"g:{_line_of(text, 'state: sha256:')}:")


@pytest.mark.parametrize(
    "text", ["", "[1, 2]", "fireground: 1\nruleset: blitz\n", "a: &x 1\nb: *x\n"]
)
def test_not_a_game_file(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.fgame.yaml"
    bad.write_text(text)
    rc, _, err = run(["play", "show", str(bad)], capsys)
    assert rc == 2
    assert err.startswith(f"{bad}:")
    assert "Traceback" not in err


def test_play_without_a_subcommand_shows_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(["play"], capsys)
    assert rc == 2
    for sub in ("start", "turn", "undo", "show"):
        assert sub in err


def test_table_turns_with_orders_equal_simulate_with_the_same_orders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = {
        2: ["  - {turn: 2, unit: OFF, order: move, to: ROW10}\n",
            "  - {turn: 2, unit: DR1, order: move, to: PO4}\n"],
        3: ["  - {turn: 3, unit: GA1.1, order: rest}\n"],
    }  # fmt: skip
    every = tmp_path / "all.yaml"
    every.write_text("orders:\n" + "".join(orders[2] + orders[3]))
    log = tmp_path / "sim.json"
    rc, _, err = run(["simulate", str(ROW), "--turns", "3", "--seed", "4", "--orders", str(every),
                      "--log", str(log)], capsys)  # fmt: skip
    assert rc == 0, err
    sim = json.loads(log.read_text())["turns"]
    game = tmp_path / "g.fgame.yaml"
    assert run(["play", "start", str(ROW), "--out", str(game), "--seed", "4"], capsys)[0] == 0
    for turn in (1, 2, 3):
        argv = ["play", "turn", str(game)]
        if turn in orders:
            f = tmp_path / f"turn{turn}.yaml"
            f.write_text("orders:\n" + "".join(orders[turn]))
            argv += ["--orders", str(f)]
        assert run(argv, capsys)[0] == 0
        tg = load_game(game)
        assert tg.state_log() == sim[turn - 1]["state"], turn
        assert tg.turns[-1].rolls == [e for e in sim[turn - 1]["events"]
                                      if e.get("dice") or "point" in e]  # fmt: skip
    refused = [e for e in sim[1]["events"] if e.get("rule") == "order" and "refused" in e]
    assert [e["unit"] for e in refused] == ["DR1"]
    # GA1.1's order is under way: carried by messenger (R-9), it takes effect on turn 4
    pending = tg.game.state.extra.get("pending_orders", [])
    assert [(d["unit"], d["kind"], d["due"]) for d in pending] == [("GA1.1", "rest", 4)]
