"""BLITZ!'s memo keys (``TurnContext.cache``), each saying whether the games of one
scenario and ruleset may share it (``shared=True``: it follows from the map and the rules
alone; see :mod:`fireground.engine.core.memo`).

The keys are ``Final``: compiled, a module's use of a final name reads a C global, where
any other module-level name is looked up in the module's dict at every use (round 23).

``shared=True`` is a promise that sharing cannot change a game (tests/engine/test_memos.py
plays games on shared memos against games alone). A memo of the map kept ``False`` is only
rebuilt per game; one of the game in progress (a step's or a call's scratch, the orders
file, the fires as the autopilot's call starts) must stay ``False``.
"""

from __future__ import annotations

from typing import Any, Final

from ...core.memo import Memo

AP_FIRES: Final[Memo[Any]] = Memo("ap_fires", shared=False)
AP_JUMP: Final[Memo[Any]] = Memo(
    "ap_jump", shared=False
)  # parking: chance of a jump into each street
AP_P_IN: Final[Memo[Any]] = Memo("ap_p_in", shared=False)
AP_PRIO: Final[Memo[Any]] = Memo("ap_prio", shared=False)
AP_SIDE: Final[Memo[Any]] = Memo("ap_side", shared=False)  # parking: the entries' side
AP_CUT: Final[Memo[Any]] = Memo(
    "ap_cut", shared=False
)  # parking: streets forecast rubble may close
AP_SMALL: Final[Memo[Any]] = Memo("ap_small", shared=False)
AP_SOURCES: Final[Memo[Any]] = Memo("ap_sources", shared=False)  # priorities: open fires by cover
AP_LOST: Final[Memo[Any]] = Memo("ap_lost", shared=False)  # priorities: the lost causes of a call
AP_LOST_MAP: Final[Memo[Any]] = Memo("ap_lost_map", shared=True)  # priorities: the map's part
AP_BURNS: Final[Memo[Any]] = Memo("ap_burns", shared=False)  # safety: areas that can burn
AP_BUILDING_BURNS: Final[Memo[Any]] = Memo(
    "ap_building_burns", shared=True
)  # safety: the buildings
AP_CATCH: Final[Memo[Any]] = Memo("ap_catch", shared=False)  # safety: chance to catch next step 1
# safety: where hose teams fight and the spread's state modifiers, as the call starts
AP_FIGHT: Final[Memo[Any]] = Memo("ap_fight", shared=False)
AP_LIMITS: Final[Memo[Any]] = Memo("ap_limits", shared=False)  # safety: the policy limits, per game
# safety: the pocket forecast's figures (policy and rules), per game
AP_LIMITS_POCKET: Final[Memo[Any]] = Memo("ap_limits_pocket", shared=False)
AP_OK: Final[Memo[Any]] = Memo("ap_ok", shared=False)  # safety: may a way out pass here
AP_ZONE: Final[Memo[Any]] = Memo("ap_zone", shared=False)  # safety: where a collapse can strike
# safety: the damaged building locations burning hard enough to roll, for the collapse zones
AP_FALLING: Final[Memo[Any]] = Memo("ap_falling", shared=False)
AP_REFUGE_ZONE: Final[Memo[Any]] = Memo("ap_refuge_zone", shared=False)  # safety: refuge margin
AP_WAYBACK: Final[Memo[Any]] = Memo("ap_wayback", shared=False)  # safety: no sure way to a haven
AP_POCKET: Final[Memo[Any]] = Memo(
    "ap_pocket", shared=False
)  # safety: the pocket forecast, per call
AP_POLICY: Final[Memo[Any]] = Memo("ap_policy", shared=False)  # safety: policy values, per game
AP_ADJACENCY: Final[Memo[Any]] = Memo("ap_adjacency", shared=True)  # safety: the map's foot steps
# safety: each location's least walk to ground that is not a building, and to a haven (the map's,
# round 18)
AP_EXIT_BOUND: Final[Memo[Any]] = Memo("ap_exit_bound", shared=True)
# safety: the locations that are not in a building (the map's, round 18)
AP_GROUND: Final[Memo[Any]] = Memo("ap_ground", shared=True)
# safety: streets and open ground with no building next to them (the map's)
AP_HAVENS: Final[Memo[Any]] = Memo("ap_havens", shared=True)
# safety: each haven with the areas a vehicle or rubble in keeps a stand out of it (the map's)
AP_HAVEN_NEAR: Final[Memo[Any]] = Memo("ap_haven_near", shared=True)
AP_SHELTERS: Final[Memo[Any]] = Memo("ap_shelters", shared=False)  # safety: havens free now
AP_TRAP: Final[Memo[Any]] = Memo("ap_trap", shared=False)  # safety: no safe way out
#: safety: where ``retreat`` walks a stand to from each place, for one call of the standing
#: orders while the pitched ladders stay as they are: (ladders, goal by place)
AP_RETREAT: Final[Memo[Any]] = Memo("ap_retreat", shared=False)
AP_THREAT: Final[Memo[Any]] = Memo("ap_threat", shared=False)
AP_VEHICLES: Final[Memo[Any]] = Memo("ap_vehicles", shared=False)
AREA_DIST: Final[Memo[Any]] = Memo("area_dist", shared=True)
AREA_KINDS: Final[Memo[Any]] = Memo("area_kinds", shared=False)
AREA_NEIGHBOURS: Final[Memo[Any]] = Memo("area_neighbours", shared=True)
AUTOPILOT_PRIORITY_STATIC: Final[Memo[Any]] = Memo("autopilot_priority_static", shared=False)
BLOCKED_MEMO: Final[Memo[Any]] = Memo("blocked_memo", shared=False)  # step 6: road_blocked
BOMB_INDEX: Final[Memo[Any]] = Memo("bomb_index", shared=False)
BUILDING_AREAS: Final[Memo[Any]] = Memo("building_areas", shared=False)
# wheelbarrow: the units carried by hand, for one dict of units (the game's state)
CARRIED_UNITS: Final[Memo[Any]] = Memo("carried_units", shared=False)
COLLAPSE_QUEUE: Final[Memo[Any]] = Memo("collapse_queue", shared=False)
COLLAPSING: Final[Memo[Any]] = Memo("collapsing", shared=False)
# step 7: the building locations not yet destroyed (or more), in map order, for one state
DAMAGE_STANDING: Final[Memo[Any]] = Memo("damage_standing", shared=False)
DOWNWIND: Final[Memo[Any]] = Memo("downwind", shared=True)
DRY_NEIGHBOURS: Final[Memo[Any]] = Memo("dry_neighbours", shared=True)
ENTRY_AREAS: Final[Memo[Any]] = Memo("entry_areas", shared=False)
FOOT_LINKS: Final[Memo[Any]] = Memo("foot_links", shared=True)
FOOT_NUMBERED: Final[Memo[Any]] = Memo("foot_numbered", shared=True)
GROWTH_PLAN: Final[Memo[Any]] = Memo("growth_plan", shared=True)
HEAT_MEMO: Final[Memo[Any]] = Memo("heat_memo", shared=False)
HOSE_STEPS: Final[Memo[Any]] = Memo("hose_steps", shared=True)
HYDRANT_AREAS: Final[Memo[Any]] = Memo("hydrant_areas", shared=False)
HYDRANT_PRESSURE: Final[Memo[Any]] = Memo("hydrant_pressure", shared=False)  # water: by area
IN_RANGE: Final[Memo[Any]] = Memo("in_range", shared=True)
JUMP_PLAN: Final[Memo[Any]] = Memo("jump_plan", shared=True)
JUMPS: Final[Memo[Any]] = Memo("jumps", shared=True)
JUMPS_ALLOWED: Final[Memo[Any]] = Memo("jumps_allowed", shared=True)
JUMP_STREETS: Final[Memo[Any]] = Memo("jump_streets", shared=True)  # parking: jumps into streets
JUMPS_INTO: Final[Memo[Any]] = Memo("jumps_into", shared=True)  # parking: the same, by street
LADDER_UNITS: Final[Memo[Any]] = Memo("ladder_units", shared=False)
LOCATION_BY_RANK: Final[Memo[Any]] = Memo("location_by_rank", shared=False)
LOCATION_RANK: Final[Memo[Any]] = Memo("location_rank", shared=False)
LORRY_WAYS: Final[Memo[Any]] = Memo("lorry_ways", shared=True)  # lorry: streets next to each area
MAP_MODIFIERS: Final[Memo[Any]] = Memo("map_modifiers", shared=True)  # safety: a spread's map part
NEIGHBOURS: Final[Memo[Any]] = Memo("neighbours", shared=True)
NEIGHBOURS_OF: Final[Memo[Any]] = Memo("neighbours_of", shared=True)
ORDER_BOOK: Final[Memo[Any]] = Memo("order_book", shared=False)
PASSABLE_NUMBERED: Final[Memo[Any]] = Memo("passable_numbered", shared=False)
REFILL_NOW: Final[Memo[Any]] = Memo(
    "refill_now", shared=False
)  # support: refill points, hydrants now
REFILL_POINTS: Final[Memo[Any]] = Memo("refill_points", shared=True)
ROAD_ADJ: Final[Memo[Any]] = Memo("road_adj", shared=False)
ROUTE_MEMO: Final[Memo[Any]] = Memo("route_memo", shared=False)
SEARCH_MEMO: Final[Memo[Any]] = Memo("search_memo", shared=False)
SHELTER_EXPOSURE: Final[Memo[Any]] = Memo("shelter_exposure", shared=True)  # parking: shelters
SPREAD_ORDER: Final[Memo[Any]] = Memo("spread_order", shared=True)
SPREAD_PLAN: Final[Memo[Any]] = Memo("spread_plan", shared=True)
SPREAD_REVERSE: Final[Memo[Any]] = Memo("spread_reverse", shared=True)
SPREAD_TARGETS: Final[Memo[Any]] = Memo("spread_targets", shared=True)
UNSAFE_LIMITS: Final[Memo[Any]] = Memo(
    "unsafe_limits", shared=False
)  # the rule's three figures
UNSAFE_MEMO: Final[Memo[Any]] = Memo("unsafe_memo", shared=False)
WATER_AREAS: Final[Memo[Any]] = Memo("water_areas", shared=False)
WATER_HERE: Final[Memo[Any]] = Memo("water_here", shared=True)
WATER_KIND_AREAS: Final[Memo[Any]] = Memo("water_kind_areas", shared=False)
# parking: the open-water areas next to each area (the map's)
WATER_NEXT_DOOR: Final[Memo[Any]] = Memo("water_next_door", shared=True)

# -- speed round 24 (docs/autopilot.md) --
#: parking: the fires' total (``dry_penalty``) with the call it was added up in (the
#: call's own ``AP_SOURCES`` dict, made anew each call of the standing orders)
AP_FIRE_TOTAL: Final[Memo[Any]] = Memo("ap_fire_total", shared=False)
#: parking: the areas burning hot with their worst damage (``hot_areas``), with the call
#: they were found in (as ``AP_FIRE_TOTAL``)
AP_HOT_AREAS: Final[Memo[Any]] = Memo("ap_hot_areas", shared=False)
#: danger.map_tuples: each map location as the map's own tuple (the fires and the
#: neighbour lists hold them, so a look-up finds its key by identity)
MAP_TUPLES: Final[Memo[Any]] = Memo("map_tuples", shared=True)
