"""BLITZ!'s memo keys (``TurnContext.cache``), each saying whether the games of one
scenario and ruleset may share it (``shared=True``: it follows from the map and the rules
alone; see :mod:`fireground.engine.core.memo`).

``shared=True`` is a promise that sharing cannot change a game (tests/engine/test_memos.py
plays games on shared memos against games alone). A memo of the map kept ``False`` is only
rebuilt per game; one of the game in progress (a step's or a call's scratch, the orders
file, the fires as the autopilot's call starts) must stay ``False``.
"""

from __future__ import annotations

from typing import Any

from ...core.memo import Memo

AP_FIRES: Memo[Any] = Memo("ap_fires", shared=False)
AP_JUMP: Memo[Any] = Memo(
    "ap_jump", shared=False
)  # parking: chance of a jump into each street
AP_P_IN: Memo[Any] = Memo("ap_p_in", shared=False)
AP_PRIO: Memo[Any] = Memo("ap_prio", shared=False)
AP_SIDE: Memo[Any] = Memo("ap_side", shared=False)  # parking: the entries' side
AP_CUT: Memo[Any] = Memo("ap_cut", shared=False)  # parking: streets forecast rubble may close
AP_SMALL: Memo[Any] = Memo("ap_small", shared=False)
AP_SOURCES: Memo[Any] = Memo("ap_sources", shared=False)  # priorities: open fires by cover
AP_LOST: Memo[Any] = Memo("ap_lost", shared=False)  # priorities: the lost causes of a call
AP_LOST_MAP: Memo[Any] = Memo("ap_lost_map", shared=True)  # priorities: the map's part
AP_BURNS: Memo[Any] = Memo("ap_burns", shared=False)  # safety: areas that can burn
AP_BUILDING_BURNS: Memo[Any] = Memo("ap_building_burns", shared=True)  # safety: the buildings
AP_CATCH: Memo[Any] = Memo("ap_catch", shared=False)  # safety: chance to catch next step 1
# safety: where hose teams fight and the spread's state modifiers, as the call starts
AP_FIGHT: Memo[Any] = Memo("ap_fight", shared=False)
AP_LIMITS: Memo[Any] = Memo("ap_limits", shared=False)  # safety: the policy limits, per game
# safety: the pocket forecast's figures (policy and rules), per game
AP_LIMITS_POCKET: Memo[Any] = Memo("ap_limits_pocket", shared=False)
AP_OK: Memo[Any] = Memo("ap_ok", shared=False)  # safety: may a way out pass here
AP_ZONE: Memo[Any] = Memo("ap_zone", shared=False)  # safety: where a collapse can strike
# safety: the damaged building locations burning hard enough to roll, for the collapse zones
AP_FALLING: Memo[Any] = Memo("ap_falling", shared=False)
AP_REFUGE_ZONE: Memo[Any] = Memo("ap_refuge_zone", shared=False)  # safety: refuge margin
AP_WAYBACK: Memo[Any] = Memo("ap_wayback", shared=False)  # safety: no sure way to a haven
AP_POCKET: Memo[Any] = Memo("ap_pocket", shared=False)  # safety: the pocket forecast, per call
AP_POLICY: Memo[Any] = Memo("ap_policy", shared=False)  # safety: policy values, per game
AP_ADJACENCY: Memo[Any] = Memo("ap_adjacency", shared=True)  # safety: the map's foot steps
# safety: each location's least walk to ground that is not a building, and to a haven (the map's,
# round 18)
AP_EXIT_BOUND: Memo[Any] = Memo("ap_exit_bound", shared=True)
# safety: the locations that are not in a building (the map's, round 18)
AP_GROUND: Memo[Any] = Memo("ap_ground", shared=True)
# safety: streets and open ground with no building next to them (the map's)
AP_HAVENS: Memo[Any] = Memo("ap_havens", shared=True)
# safety: each haven with the areas a vehicle or rubble in keeps a stand out of it (the map's)
AP_HAVEN_NEAR: Memo[Any] = Memo("ap_haven_near", shared=True)
AP_SHELTERS: Memo[Any] = Memo("ap_shelters", shared=False)  # safety: havens free now
AP_TRAP: Memo[Any] = Memo("ap_trap", shared=False)  # safety: no safe way out
AP_THREAT: Memo[Any] = Memo("ap_threat", shared=False)
AP_VEHICLES: Memo[Any] = Memo("ap_vehicles", shared=False)
AREA_DIST: Memo[Any] = Memo("area_dist", shared=True)
AREA_KINDS: Memo[Any] = Memo("area_kinds", shared=False)
AREA_NEIGHBOURS: Memo[Any] = Memo("area_neighbours", shared=True)
AUTOPILOT_PRIORITY_STATIC: Memo[Any] = Memo("autopilot_priority_static", shared=False)
BLOCKED_MEMO: Memo[Any] = Memo("blocked_memo", shared=False)  # step 6: road_blocked
BOMB_INDEX: Memo[Any] = Memo("bomb_index", shared=False)
BUILDING_AREAS: Memo[Any] = Memo("building_areas", shared=False)
# wheelbarrow: the units carried by hand, for one dict of units (the game's state)
CARRIED_UNITS: Memo[Any] = Memo("carried_units", shared=False)
COLLAPSE_QUEUE: Memo[Any] = Memo("collapse_queue", shared=False)
COLLAPSING: Memo[Any] = Memo("collapsing", shared=False)
# step 7: the building locations not yet destroyed (or more), in map order, for one state
DAMAGE_STANDING: Memo[Any] = Memo("damage_standing", shared=False)
DOWNWIND: Memo[Any] = Memo("downwind", shared=True)
DRY_NEIGHBOURS: Memo[Any] = Memo("dry_neighbours", shared=True)
ENTRY_AREAS: Memo[Any] = Memo("entry_areas", shared=False)
FOOT_LINKS: Memo[Any] = Memo("foot_links", shared=True)
FOOT_NUMBERED: Memo[Any] = Memo("foot_numbered", shared=True)
GROWTH_PLAN: Memo[Any] = Memo("growth_plan", shared=True)
HEAT_MEMO: Memo[Any] = Memo("heat_memo", shared=False)
HOSE_STEPS: Memo[Any] = Memo("hose_steps", shared=True)
HYDRANT_AREAS: Memo[Any] = Memo("hydrant_areas", shared=False)
HYDRANT_PRESSURE: Memo[Any] = Memo("hydrant_pressure", shared=False)  # water: by area
IN_RANGE: Memo[Any] = Memo("in_range", shared=True)
JUMP_PLAN: Memo[Any] = Memo("jump_plan", shared=True)
JUMPS: Memo[Any] = Memo("jumps", shared=True)
JUMPS_ALLOWED: Memo[Any] = Memo("jumps_allowed", shared=True)
JUMP_STREETS: Memo[Any] = Memo("jump_streets", shared=True)  # parking: jumps into streets
JUMPS_INTO: Memo[Any] = Memo("jumps_into", shared=True)  # parking: the same, by street
LADDER_UNITS: Memo[Any] = Memo("ladder_units", shared=False)
LOCATION_BY_RANK: Memo[Any] = Memo("location_by_rank", shared=False)
LOCATION_RANK: Memo[Any] = Memo("location_rank", shared=False)
LORRY_WAYS: Memo[Any] = Memo("lorry_ways", shared=True)  # lorry: streets next to each area
MAP_MODIFIERS: Memo[Any] = Memo("map_modifiers", shared=True)  # safety: a spread's map part
NEIGHBOURS: Memo[Any] = Memo("neighbours", shared=True)
NEIGHBOURS_OF: Memo[Any] = Memo("neighbours_of", shared=True)
ORDER_BOOK: Memo[Any] = Memo("order_book", shared=False)
PASSABLE_NUMBERED: Memo[Any] = Memo("passable_numbered", shared=False)
REFILL_NOW: Memo[Any] = Memo("refill_now", shared=False)  # support: refill points, hydrants now
REFILL_POINTS: Memo[Any] = Memo("refill_points", shared=True)
ROAD_ADJ: Memo[Any] = Memo("road_adj", shared=False)
ROUTE_MEMO: Memo[Any] = Memo("route_memo", shared=False)
SEARCH_MEMO: Memo[Any] = Memo("search_memo", shared=False)
SHELTER_EXPOSURE: Memo[Any] = Memo("shelter_exposure", shared=True)  # parking: shelters
SPREAD_ORDER: Memo[Any] = Memo("spread_order", shared=True)
SPREAD_PLAN: Memo[Any] = Memo("spread_plan", shared=True)
SPREAD_REVERSE: Memo[Any] = Memo("spread_reverse", shared=True)
SPREAD_TARGETS: Memo[Any] = Memo("spread_targets", shared=True)
UNSAFE_LIMITS: Memo[Any] = Memo("unsafe_limits", shared=False)  # the rule's three figures
UNSAFE_MEMO: Memo[Any] = Memo("unsafe_memo", shared=False)
WATER_AREAS: Memo[Any] = Memo("water_areas", shared=False)
WATER_HERE: Memo[Any] = Memo("water_here", shared=True)
WATER_KIND_AREAS: Memo[Any] = Memo("water_kind_areas", shared=False)
# parking: the open-water areas next to each area (the map's)
WATER_NEXT_DOOR: Memo[Any] = Memo("water_next_door", shared=True)
