"""BLITZ!'s game pack: what the game-agnostic engine asks of the game (see
:class:`fireground.engine.core.game.GamePack`).

Registered as the entry point ``blitz = "fireground.engine.games.blitz.pack:PACK"`` in the
group ``fireground.games``. The rules, the policies and the checks are imported when first
used, not with the pack.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.ruleset import Ruleset, load_ruleset
from ...core.turn import Policies, Step, TurnContext
from .state import GameState

#: the order kinds :meth:`BlitzPack.legal_actions` enumerates (the others need a plan: a
#: hose's path, a ladder's face, a pump to carry)
ENUMERATED = ("rest", "withdraw", "move", "stream", "damp_down", "rescue")


class BlitzPack:
    """BLITZ!, Jim Wallman's game of firefighting in the London Blitz."""

    id = "blitz"
    name = "BLITZ!"
    version = "1"
    sides: tuple[str, ...] = ("fire brigade",)
    #: the fire brigade is played by the standing-orders autopilot, or by an orders file
    #: (the orders due each turn, then the autopilot for every unit without one)
    policies: Mapping[str, tuple[str, ...]] = {"fire brigade": ("autopilot", "orders")}
    map_kind = "polygons"
    #: finding codes of its checks start with this
    check_prefix = "FG"
    #: the ruleset data a scenario's ``ruleset:`` may name (core.ruleset reads them from here)
    rulesets: Mapping[str, str] = {"blitz": f"{__package__}.rulesets"}
    #: its editor parts (panels, play mode): a module the editor imports (engine imports no Qt)
    editor_tools = "fireground.editor.games.blitz"
    #: its printed aids (cards, reference, counters, turn report, briefing): a module the
    #: exporter imports (the engine imports no reportlab)
    export_tools = "fireground.export.games.blitz"

    def load_scenario(self, path: str) -> Any:
        from ...scenario.io import load_scenario

        return load_scenario(path)

    def ruleset(self, scenario: Any) -> Ruleset:
        return load_ruleset(scenario.ruleset, scenario.house_rules)

    def initial_state(self, scenario: Any, rules: Any) -> GameState:
        from .state import initial_state

        return initial_state(scenario, rules)

    def steps(self) -> Sequence[tuple[int, Step]]:
        from .steps import steps

        return steps()

    def turn_policies(self) -> Policies:
        """Step 6's decision makers: the orders file's orders due, then the autopilot."""
        from .steps import policies

        return policies()

    def legal_actions(self, ctx: Any, state: Any, who: str) -> Sequence[Any]:
        """The orders (§7) the rules allow unit ``who`` now, each passing the orders check:
        rest, withdraw, a move one foot link away (a stand) or to any street on a clear
        route (a vehicle), a stream or damping down from its branch, a rescue. Orders
        that need a plan (laying a hose, pitching a ladder, carrying a pump) are not
        enumerated (see :data:`ENUMERATED`)."""
        from ...board.model import Location
        from .orders.check import Order, OrderError, check
        from .reach.foot import foot_links, ladder_links
        from .rules.reach import in_range, road_routes
        from .units import STAND

        assert isinstance(ctx, TurnContext) and isinstance(state, GameState)
        u = state.units.get(who)
        if u is None or not u.in_play or u.loc is None:
            return []
        loc: Location = u.loc
        candidates = [Order(who, "rest"), Order(who, "withdraw")]
        if u.kind == STAND:
            links = foot_links(ctx, loc, ladder_links(state, ctx))
            candidates += [Order(who, "move", to=link[0]) for link in links]
        else:
            streets = road_routes(ctx, state, loc[0])
            candidates += [Order(who, "move", to=(a, 0)) for a in sorted(streets) if a != loc[0]]
        if u.hose is not None:
            for at, _ in in_range(ctx, loc):
                kind = "stream" if at in state.fire else "damp_down"
                candidates.append(Order(who, kind, at=at))
        for c in sorted(state.casualties, key=lambda c: (c.loc, c.id)):
            if c.status in ("buried", "located"):
                candidates.append(Order(who, "rescue", at=c.loc))
        legal = []
        for order in dict.fromkeys(candidates):  # no order twice, in the order built
            try:
                check(ctx, state, order)
            except OrderError:
                continue
            legal.append(order)
        return legal

    def outcome(self, scenario: Any, state: Any, rules: Any) -> Mapping[str, Any]:
        """The scorecard: destroyed, burning, casualties by outcome, units lost, objectives."""
        from .score import scorecard

        return scorecard(scenario, state, rules)

    def checks(self, scenario: Any) -> Sequence[Any]:
        from .checks.run import check

        return check(scenario)

    def __repr__(self) -> str:
        return "fireground.engine.games.blitz.pack.PACK"


#: the pack object the ``fireground.games`` entry point names
PACK = BlitzPack()
