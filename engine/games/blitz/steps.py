"""BLITZ!'s step table and policies: what the game hands the turn driver.

The ten steps of §2 in play order, and the decision makers of step 6 (the player's orders,
then the standing-orders autopilot). Only this module joins the rules to the policies, so
no rule imports the autopilot or the orders.
"""

from __future__ import annotations

from ...core.turn import Policies, Step
from .autopilot.driver import standing_orders
from .orders import apply as orders
from .rules import bombing, damage, fatigue, fire, firefighting, movement, rescue, water


def steps() -> list[tuple[int, Step]]:
    """The ten steps of §2 as (step number, function), in play order."""
    return [
        (1, fire.step_spread),
        (2, fire.step_growth),
        (3, fire.step_reignite),
        (4, fire.step_damp),
        (5, bombing.step_bombing),
        (6, movement.step_movement),
        (7, damage.step_damage),
        (8, water.step_water),
        (9, firefighting.step_firefighting),
        (9, rescue.step_rescue),
        (10, fatigue.step_fatigue),
    ]


def policies() -> Policies:
    """BLITZ!'s decision makers: the orders file's orders due this turn, then the autopilot."""
    return Policies(orders=orders.apply_due, standing=standing_orders)
