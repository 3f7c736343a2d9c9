"""Monte Carlo over Forest Fire: many seeded games for each pair of policies.

Game ``i`` of a run with seed ``S`` plays with seed ``S + i`` whatever the policies or
the variant, so two cells (or a scenario and its variant) are compared on the same dice.
Each share comes with a 95% Wilson interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .play import play_game
from .rules import Rules
from .scenario import Setup
from .steps import CHIEF_WIN, MARGINAL, TOTAL

Z95 = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + Z95 * Z95 / n
    c = (p + Z95 * Z95 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


@dataclass
class Cell:
    """The results of ``games`` games of one policy pair."""

    fire: str
    chief: str
    games: int = 0
    bands: dict[str, int] = field(default_factory=lambda: {TOTAL: 0, MARGINAL: 0, CHIEF_WIN: 0})
    rounds: int = 0
    capped: int = 0
    vp: int = 0
    decisions: int = 0

    def add(self, result: str, rounds: int, reason: str, vp: int, decisions: int) -> None:
        self.games += 1
        self.bands[result] += 1
        self.rounds += rounds
        self.capped += reason == "round cap"
        self.vp += vp
        self.decisions += decisions

    def share(self, band: str) -> tuple[float, float, float]:
        """(share, low, high) of games ending in ``band``."""
        k = self.bands[band]
        lo, hi = wilson(k, self.games)
        return (k / self.games if self.games else 0.0, lo, hi)

    @property
    def fire_wins(self) -> int:
        return self.bands[TOTAL] + self.bands[MARGINAL]

    @property
    def mean_rounds(self) -> float:
        return self.rounds / self.games if self.games else 0.0

    @property
    def mean_vp(self) -> float:
        return self.vp / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"fire": self.fire, "chief": self.chief, "games": self.games}
        for band in (TOTAL, MARGINAL, CHIEF_WIN):
            s, lo, hi = self.share(band)
            out[band.replace(" ", "_")] = {"share": round(s, 4), "low": round(lo, 4),
                                           "high": round(hi, 4)}  # fmt: skip
        cap, lo, hi = (self.capped / self.games, *wilson(self.capped, self.games))
        out["round_cap"] = {"share": round(cap, 4), "low": round(lo, 4), "high": round(hi, 4)}
        out["mean_rounds"] = round(self.mean_rounds, 3)
        out["mean_vp"] = round(self.mean_vp, 3)
        return out


Progress = Callable[[int, int], None]


def run_cell(
    setup: Setup, rules: Rules, fire: str, chief: str, games: int, seed: int,
    progress: Progress | None = None,
) -> Cell:  # fmt: skip
    """Play ``games`` games of ``fire`` against ``chief`` (seeds ``seed .. seed+games-1``)."""
    cell = Cell(fire, chief)
    for i in range(games):
        rec = play_game(setup, rules, {"fire": fire, "chief": chief}, seed + i)
        cell.add(rec.result, rec.rounds, rec.reason, rec.vp, rec.decisions)
        if progress:
            progress(i + 1, games)
    return cell


def matrix(
    setup: Setup, rules: Rules, policies: list[str], games: int, seed: int,
    progress: Progress | None = None, pairs: list[tuple[str, str]] | None = None,
) -> list[Cell]:  # fmt: skip
    """Every (fire, chief) pair of ``policies`` (or the given ``pairs``), in order."""
    todo = pairs or [(f, c) for f in policies for c in policies]
    return [run_cell(setup, rules, f, c, games, seed, progress) for f, c in todo]


def difference(a: Cell, b: Cell) -> tuple[float, float, float]:
    """Fire's victory share in ``b`` minus in ``a`` with a 95% interval (normal
    approximation; the games share their seeds, so this interval is conservative)."""
    pa = a.fire_wins / a.games
    pb = b.fire_wins / b.games
    se = math.sqrt(pa * (1 - pa) / a.games + pb * (1 - pb) / b.games)
    d = pb - pa
    return (d, d - Z95 * se, d + Z95 * se)
