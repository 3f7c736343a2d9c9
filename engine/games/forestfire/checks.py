"""Checks of a Forest Fire scenario: findings with codes FF1nn, never exceptions.

=====  ========  =====================================================================
code   severity  finding
=====  ========  =====================================================================
FF101  error     the board is shorter than 3 squares (a town, and room for a fire)
FF102  error     a start token is off the board
FF103  error     no fire token at the start (the game would end before it began)
FF104  error     an engine is off the board
FF105  error     an engine holds more water than ``engine.capacity`` or less than none
FF106  warning   an engine starts on a burning square (Fire destroys it in round 1)
FF107  warning   the Chief has no engine
FF108  error     ``rounds.max`` or ``burn_out.at`` is 0 (no game, or every square burns)
FF109  warning   ``vp.marginal`` is above ``vp.win`` (no marginal victory is possible)
FF110  warning   the spray range reaches past the distances ``spray.need`` lists
FF111  warning   the square size is under 2 cm or over 20 cm (hard to use at the table)
FF112  warning   a start square holds ``burn_out.at`` tokens or more (it burns at the end
                 of Fire's first turn)
=====  ========  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .scenario import Setup

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: a stable code, severity, message, and the dotted key it is about."""

    code: str
    severity: Severity
    message: str
    key: str = ""
    line: int | None = None
    col: int | None = None

    def __str__(self) -> str:
        return f"{self.code} {self.message}"


def check_setup(s: Setup) -> list[Finding]:
    """Every finding for scenario ``s``, errors first, then in file order."""
    out: list[Finding] = []

    def add(code: str, sev: Severity, msg: str, key: str) -> None:
        line, col = s.where(key)
        out.append(Finding(code, sev, msg, key, line or None, col or None))

    r = s.rules()
    n = s.squares
    if n < 3:
        add("FF101", "error", f"the board has {n} square(s); it needs at least 3 "
            "(the town and two of forest)", "board.squares")  # fmt: skip
    for sq, c in sorted(s.tokens.items()):
        if not 1 <= sq <= n:
            add("FF102", "error", f"{c} fire token(s) on square {sq}, off the board (1-{n})",
                f"start.tokens.{sq}")  # fmt: skip
        elif c >= r.burn_out_at > 0:
            add("FF112", "warning", f"square {sq} starts with {c} tokens; it burns out at the "
                f"end of Fire's first turn (burn_out.at {r.burn_out_at})", f"start.tokens.{sq}")  # fmt: skip
    if not any(c for sq, c in s.tokens.items() if 1 <= sq <= n):
        add("FF103", "error", "no fire token on the board at the start", "start.tokens")
    if not s.engines:
        add("FF107", "warning", "the Chief has no engine", "start.engines")
    for e in s.engines:
        key = f"start.engines.{e.id}"
        if not 1 <= e.square <= n:
            add("FF104", "error", f"engine {e.id} is on square {e.square}, off the board (1-{n})",
                f"{key}.square")  # fmt: skip
        elif s.tokens.get(e.square, 0) > 0:
            add("FF106", "warning", f"engine {e.id} starts on burning square {e.square}; "
                "Fire destroys it at the start of round 1", key)  # fmt: skip
        if not 0 <= e.water <= r.capacity:
            add("FF105", "error", f"engine {e.id} holds {e.water} water; it can hold 0-"
                f"{r.capacity} (engine.capacity)", f"{key}.water")  # fmt: skip
    if r.rounds_max < 1:
        add("FF108", "error", "rounds.max is 0: the game has no round", "house_rules.rounds.max")
    if r.burn_out_at < 1:
        add("FF108", "error", "burn_out.at is 0: every square would burn out at once",
            "house_rules.burn_out.at")  # fmt: skip
    if r.vp_marginal > r.vp_win:
        add("FF109", "warning", f"vp.marginal {r.vp_marginal} is above vp.win {r.vp_win}: "
            "no marginal victory is possible", "house_rules.vp.marginal")  # fmt: skip
    if r.spray_range >= len(r.spray_need):
        add("FF110", "warning", f"spray.range is {r.spray_range} but spray.need lists distances "
            f"0-{len(r.spray_need) - 1} only; farther sprays cannot hit and are not offered",
            "house_rules.spray.range")  # fmt: skip
    if not 2 <= s.square_cm <= 20:
        add("FF111", "warning", f"squares of {s.square_cm:g} cm are hard to use at the table "
            "(2-20 cm)", "board.square_cm")  # fmt: skip
    out.sort(key=lambda f: (f.severity != "error", f.line or 1 << 30, f.code))
    return out


def playable(s: Setup) -> bool:
    """Whether ``s`` has no error finding (the engine can play it)."""
    return not any(f.severity == "error" for f in check_setup(s))
