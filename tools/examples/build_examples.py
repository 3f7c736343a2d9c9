#!/usr/bin/env python3
"""Write the bundled example scenarios, examples/*.fg.yaml, from the maps drawn below.

    python tools/examples/build_examples.py           # (re)write the three files
    python tools/examples/build_examples.py --check   # exit 1 if a file is out of date
    python tools/examples/build_examples.py --unbalanced --out DIR   # without balance.json

Each map is a character grid at 5 cm a cell (north up); ``mapdraw`` cuts its regions into
areas of about 10 cm with exact shared edges. Features, fires and units are placed by grid
cell (``m.at(row, col)``), so redrawing a map never leaves a dangling id. The output is
deterministic: the same script always writes the same bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mapdraw import Doc, Map, Region, render

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


# -- small builders, keys in the order the format lists them ----------------------------


def stairs(area: str) -> dict[str, Any]:
    return {"type": "stairwell", "area": area}


def store(area: str, level: int, material: str) -> dict[str, Any]:
    return {"type": "store", "area": area, "level": level, "material": material}


def hydrant(area: str, pressure: int) -> dict[str, Any]:
    return {"type": "hydrant", "area": area, "pressure": pressure}


def water(area: str, points: int, name: str) -> dict[str, Any]:
    return {"type": "water", "area": area, "points": points, "name": name}


def occupants(area: str, level: int, count: int) -> dict[str, Any]:
    return {"type": "occupants", "area": area, "level": level, "count": count}


def entry(area: str, name: str) -> dict[str, Any]:
    return {"type": "entry", "area": area, "name": name}


def label(area: str, text: str) -> dict[str, Any]:
    return {"type": "label", "area": area, "text": text}


def fire(area: str, level: int, value: int = 1) -> dict[str, Any]:
    return {"area": area, "level": level, "fire": value}


def at_level(area: str, level: int, **value: int) -> dict[str, Any]:
    return {"area": area, "level": level, **value}


def arriving(uid: str, utype: str, entry_name: str, turn: int) -> dict[str, Any]:
    return {"id": uid, "type": utype, "entry": entry_name, "arrives": turn}


def placed(uid: str, utype: str, area: str, level: int = 0) -> dict[str, Any]:
    return {"id": uid, "type": utype, "area": area, "level": level}


def building(bid: str, name: str, levels: int, basement: bool = False) -> dict[str, Any]:
    return {"id": bid, "name": name, "levels": levels, "basement": basement}


def street(prefix: str, name: str) -> Region:
    return Region("street", prefix, name=name, mode="strip")


def alley(prefix: str, name: str) -> Region:
    return Region("open", prefix, name=name, mode="strip")


def yard(prefix: str, name: str) -> Region:
    return Region("open", prefix, name=name)


def house(prefix: str, bid: str) -> Region:
    return Region("building", prefix, building=bid)


# -- 1. Stepney: a tutorial street ------------------------------------------------------

STEPNEY_GRID = [
    "aabbccddYYff",
    "aabbccddYYff",
    "ssssssssssss",
    "ssssssssssss",
    "gghhiijjPPPP",
    "gghhiijjPPPP",
]


def stepney() -> tuple[Doc, Map]:
    legend = {
        "a": house("H1", "house_1"),
        "b": house("H3", "house_3"),
        "c": house("H5", "house_5"),
        "d": house("H7", "house_7"),
        "Y": yard("GAP", "Bomb site (No. 9)"),
        "f": house("BY", "builders_yard"),
        "s": street("JS", "Jamaica Street"),
        "g": house("H2", "house_2"),
        "h": house("H4", "house_4"),
        "i": house("H6", "house_6"),
        "j": house("H8", "house_8"),
        "P": house("PUB", "rose_and_crown"),
    }
    m = Map(STEPNEY_GRID, legend)
    at = m.at
    houses = [building(f"house_{n}", f"No. {n}", 2) for n in (1, 3, 5, 7)]
    houses += [building(f"house_{n}", f"No. {n}", 2) for n in (2, 4, 6, 8)]
    doc = Doc(
        name="Stepney terrace, autumn 1940",
        description="""
            A first game on a single street. From 7 September 1940 London was bombed on
            fifty-seven nights in a row, and the crowded East End beside the docks was hit
            hardest of all. A handful of incendiaries has fallen on this Stepney terrace of
            two-storey houses, where a gap already marks a house lost in an earlier raid.

            One London Fire Brigade appliance is coming in from Commercial Road, with a single
            street hydrant to work from; the street's own stirrup-pump party is already out.
            Save the Rose and Crown: its cellar is the street's shelter tonight.
        """,
        turns=20,
        seed=1940,
        wind={"from": "W", "strong": False},
        bombing=False,
        mains="working",
        buildings=[
            *houses,
            building("builders_yard", "Builder's shed", 1),
            building("rose_and_crown", "The Rose and Crown", 2, basement=True),
        ],
    )
    doc.features = [
        *(stairs(h) for h in ("H1", "H3", "H5", "H7", "H2", "H4", "H6", "H8")),
        stairs(at(4, 8)),
        store("BY", 0, "wood"),
        hydrant(at(2, 6), 4),
        entry(at(2, 0), "from Commercial Road"),
        occupants("H1", 1, 2),
        occupants("H6", 0, 3),
        occupants(at(4, 8), -1, 6),
        label(at(4, 10), "Shelter in the cellar"),
        label("BY", "Timber and ladders"),
    ]
    doc.fires = [fire("H3", 1), fire("H6", 1), fire("BY", 0)]
    doc.damage = [at_level("H7", 1, damage=2)]
    doc.rubble = ["GAP"]
    doc.forces = [
        arriving("GA1", "general_appliance", "from Commercial Road", 1),
        arriving("OFF", "officer", "from Commercial Road", 1),
        placed("FP1", "fire_party", "H2", 0),
    ]
    doc.objectives = [
        {"type": "protect", "building": "rose_and_crown"},
        {"type": "contain", "max_destroyed": 4},
    ]
    return doc, m


# -- 2. Paternoster Row, 29 December 1940 -------------------------------------------------

PATERNOSTER_GRID = [
    # 0         1         2         3
    # 01234567890123456789012345678901
    "SSSSSSwwNNNNNNNNNNNNiHHHHHqBBBBB",  # 0
    "SSSSSSwwNNNNNNNNNNNNiHHHHHqBBBBB",
    "SSSSSSwwLLLLLLEEEEEEiHHHHHqBBBBB",  # 2
    "SSSSSSwwLLLLLLEEEEEEiHHHHHqBBBBB",
    "SSSSSSwwLLLLLLEEEEEEiHHHHHqKKKKK",  # 4
    "SSSSSSwwLLLLLLEEEEEEiHHHHHqKKKKK",
    "hhhhhhwwLLLLLLEEEEEEiHHHHHqKKKKK",  # 6
    "hhhhhhwwLLLLLLEEEEEEiHHHHHqKKKKK",
    "TTTTTTmmpppppppppppppppppppppppp",  # 8
    "TTTTTTmmpppppppppppppppppppppppp",
    "TTTTTTmmAAAAaPPPPPRRRRRRnDDDDDDD",  # 10
    "TTTTTTmmAAAAaPPPPPRRRRRRnDDDDDDD",
    "TTTTTTmmAAAAaPPPPPooRRRRnDDDDDDD",  # 12
    "TTTTTTmmAAAAaPPPPPooRRRRnDDDDDDD",
    "ggggggmmAAAAaPPPPPooRRRRnDDDDDDD",  # 14
    "ggggggmmAAAAaPPPPPooRRRRnDDDDDDD",
    "ssssssssssssssssssssssssssssssss",  # 16
    "ssssssssssssssssssssssssssssssss",
    "ccccZZZZccccccccXXXXcccccccccccc",  # 18: the Chapter House; the north transept
    "ccccZZZZccccccccXXXXcccccccccccc",
    "ccccccccccXXXXXXXXXXXXXXXXcccccc",  # 20: the nave
    "ccccccccccXXXXXXXXXXXXXXXXcccccc",
]


def paternoster() -> tuple[Doc, Map]:
    legend = {
        "w": street("WL", "Warwick Lane"),
        "m": street("AM", "Ave Maria Lane"),
        "p": street("ROW", "Paternoster Row"),
        "i": street("IL", "Ivy Lane"),
        "s": street("SPC", "St Paul's Churchyard"),
        "h": yard("SHC", "Stationers' Hall Court"),
        "g": yard("HG", "Stationers' Hall garden"),
        "q": alley("QH", "Queen's Head Passage"),
        "a": alley("PA", "Paul's Alley"),
        "o": yard("LY", "Loading yard"),
        "n": alley("CA", "Canon Alley"),
        "c": yard("CY", "Churchyard"),
        "S": house("SM", "simpkin"),
        "T": house("SH", "stationers_hall"),
        "N": house("PW", "printworks"),
        "L": house("LG", "longmans"),
        "E": house("IV", "ivy_lane_warehouse"),
        "H": house("PM", "paper_merchant"),
        "B": house("BB", "bindery"),
        "K": house("WS", "wholesale_stationer"),
        "A": house("AC", "amen_corner"),
        "P": house("PO", "publishers"),
        "R": house("BK", "book_stores"),
        "D": house("PS", "printers"),
        "X": house("STP", "st_pauls"),
        "Z": house("CHH", "chapter_house"),
    }
    m = Map(PATERNOSTER_GRID, legend)
    at = m.at
    newgate, cheapside, ludgate = "from Newgate Street", "from Cheapside", "from Ludgate Hill"
    doc = Doc(
        name="Paternoster Row, 29 December 1940",
        description="""
            On the night of Sunday 29 December 1940 the Luftwaffe dropped a mass of
            incendiaries on the City of London. Bombs had broken water mains, and the Thames
            was at an unusually low ebb, so the firemen fought for hours short of water. The
            old book trade's quarter around Paternoster Row, just north of St Paul's, burned
            out completely and millions of books were lost with the warehouses. It was a
            Sunday and many premises were locked with nobody watching them; fire-watching
            was made compulsory only weeks later.

            St Paul's came through, saved largely by its own volunteer Watch on the roofs,
            standing above the smoke in the photograph that became the emblem of the Blitz.
            Here the hydrants are few and weak, the wind is strong from the south-west, and
            the streets keep their pre-war names; the buildings are simplified. A high
            explosive bomb has already wrecked the ground floors of the printing works and
            the book stores, burying the night staff who sheltered there: dig them out
            before the fire reaches the wreck.
        """,
        turns=40,
        seed=1940,
        wind={"from": "SW", "strong": True},
        bombing=True,
        mains="working",
        buildings=[
            building("simpkin", "Simpkin Marshall, wholesale booksellers", 5, basement=True),
            building("stationers_hall", "Stationers' Hall", 2),
            building("printworks", "Printing works", 3),
            building("longmans", "Longmans, publishers", 5, basement=True),
            building("ivy_lane_warehouse", "Publishers' warehouse, Ivy Lane", 4, basement=True),
            building("paper_merchant", "Paper merchant", 4),
            building("bindery", "Bookbinders", 3),
            building("wholesale_stationer", "Wholesale stationer", 3),
            building("amen_corner", "Warehouse at Amen Corner", 4),
            building("publishers", "Publishers' offices and stock rooms", 5, basement=True),
            building("book_stores", "Booksellers' stock rooms", 5),
            building("printers", "Printers and stationers", 4, basement=True),
            building("st_pauls", "St Paul's Cathedral (north side)", 3),
            building("chapter_house", "Chapter House", 2),
        ],
    )
    doc.features = [
        # stairs: one per building, two in the big ones
        stairs(at(2, 4)),
        stairs(at(4, 0)),
        stairs(at(10, 4)),
        stairs(at(0, 10)),
        stairs(at(6, 10)),
        stairs(at(6, 16)),
        stairs(at(4, 22)),
        stairs(at(0, 28)),
        stairs(at(6, 28)),
        stairs(at(10, 8)),
        stairs(at(10, 14)),
        stairs(at(10, 20)),
        stairs(at(14, 22)),
        stairs(at(10, 26)),
        stairs(at(20, 12)),
        stairs(at(20, 22)),
        stairs(at(18, 4)),
        # books and paper, from basements to top floors
        store(at(0, 0), -1, "wood"),
        store(at(2, 2), 0, "wood"),
        store(at(4, 2), 1, "wood"),
        store(at(0, 4), 3, "wood"),
        store(at(2, 8), -1, "wood"),
        store(at(4, 10), 1, "wood"),
        store(at(2, 12), 3, "wood"),
        store(at(2, 14), -1, "wood"),
        store(at(4, 16), 2, "wood"),
        store(at(0, 22), 0, "wood"),
        store(at(2, 24), 1, "wood"),
        store(at(0, 28), 0, "wood"),
        store(at(12, 10), 1, "wood"),
        store(at(12, 14), -1, "wood"),
        store(at(14, 16), 2, "wood"),
        store(at(12, 20), 0, "wood"),
        store(at(14, 22), 3, "wood"),
        store(at(12, 26), -1, "wood"),
        # few hydrants, and weak ones
        hydrant(at(2, 6), 2),
        hydrant(at(8, 12), 2),
        hydrant(at(8, 26), 2),
        hydrant(at(16, 16), 2),
        entry(at(0, 6), newgate),
        entry(at(8, 30), cheapside),
        entry(at(16, 0), ludgate),
        occupants(at(10, 2), 1, 2),
        occupants(at(10, 18), 0, 1),
        occupants(at(0, 12), 0, 2),
        label(at(0, 22), "Paper store"),
        label(at(18, 16), "North transept"),
        label(at(20, 24), "Nave"),
        label(at(0, 2), "Books: cellar to roof"),
    ]
    doc.fires = [
        fire(at(0, 2), 4, 2),
        fire(at(4, 12), 4),
        fire(at(2, 16), 3),
        fire(at(6, 24), 3),
        fire(at(2, 30), 2, 2),
        fire(at(14, 22), 4),
        fire(at(10, 30), 3),
        fire(at(14, 8), 3),
        fire(at(18, 18), 2),
    ]
    doc.embers = [{"area": at(12, 16), "level": 4}]
    # an HE bomb fell before the game between the printworks and the book stores: the
    # ground floors where their night staff sheltered are wrecked (heavy damage, no fire)
    # and the staff buried (issue 18: rescue happens only where a wreck does not burn, §9)
    doc.damage = [at_level(at(0, 12), 0, damage=4), at_level(at(10, 18), 0, damage=4)]
    doc.forces = [
        placed("FP1", "fire_party", at(4, 8), 4),
        placed("FP2", "fire_party", at(10, 16), 4),
        placed("FP3", "fire_party", at(20, 12), 2),
        placed("FP4", "fire_party", at(20, 22), 2),
        arriving("OFF", "officer", cheapside, 1),
        arriving("DR1", "despatch_rider", cheapside, 1),
        arriving("GA1", "general_appliance", cheapside, 1),
        arriving("EC1", "escape_carrying_unit", newgate, 1),
        arriving("SP1", "small_pump_team", ludgate, 2),
        arriving("TL1", "turntable_ladder_unit", cheapside, 3),
        arriving("GA2", "general_appliance", newgate, 4),
        arriving("HL1", "hose_laying_lorry", newgate, 5),
        arriving("HP1", "heavy_pump", ludgate, 6),
        # a rescue party for the people in the buildings (found only where the fire is out)
        arriving("RT1", "rescue_team", ludgate, 2),
        arriving("AMB1", "ambulance", cheapside, 3),
        arriving("DOC1", "doctor", cheapside, 3),
        arriving("HR1", "heavy_rescue", newgate, 5),
    ]
    doc.objectives = [
        {"type": "protect", "building": "st_pauls"},
        {"type": "protect", "building": "stationers_hall"},
        {"type": "rescue", "at_least": 2},
        {"type": "contain", "max_destroyed": 80},
    ]
    return doc, m


# -- 3. Surrey Commercial Docks, 7 September 1940 -----------------------------------------

SURREY_GRID = [
    # 0         1         2
    # 012345678901234567890123456789
    "rrrrrrrrxxrrrrrrrrrrrrrrrrrrrr",  # 0: a jetty runs out from the stairs
    "rrrrrrrrxxrrrrrrrrrrrrrrrrrrrr",
    "AAAAAAAAxxBBBBBBBB112233445566",  # 2
    "AAAAAAAAxxBBBBBBBB112233445566",
    "AAAAAAAAxxBBBBBBBB112233445566",  # 4
    "AAAAAAAAxxBBBBBBBB112233445566",
    "RRRRRRRRRRRRRRRRRRRRRRRRRRRRRR",  # 6
    "RRRRRRRRRRRRRRRRRRRRRRRRRRRRRR",
    "LLaaaaubbbbukkkkkkkkkkFFOOvvMM",  # 8
    "LLaaaaubbbbukkkkkkkkkkFFOOvvMM",
    "LLaaaaubbbbuWWWWWWWWWWFFvvvvMM",  # 10
    "LLaaaaubbbbuWWWWWWWWWWFFvvvvMM",
    "LLuuuuuuuuuuWWWWWWWWWWFFYYYYYY",  # 12
    "LLccccudddduWWWWWWWWWWFFYYYYYY",
    "LLccccudddduWWWWWWWWWWFFYYYYYY",  # 14
    "LLccccudddduWWWWWWWWWWFFYYYYYY",
    "LLccccudddduWWWWWWWWWWFFYYYYYY",  # 16
    "LLuuuuuuuuuuWWWWWWWWWWFFYYYYYY",
    "LLeeeeuffffujjjjjjjjjjFFYYYYYY",  # 18
    "LLeeeeuffffujjjjjjjjjjFFYYYYYY",
    "LLeeeeuffffuGGGGGGGGGGFFPPPPPP",  # 20
    "LLeeeeuffffuGGGGGGGGGGFFPPPPPP",
    "DDDDDDDDDDDDDDDDDDDDDDDDDDDDDD",  # 22
    "DDDDDDDDDDDDDDDDDDDDDDDDDDDDDD",
]


def surrey_docks() -> tuple[Doc, Map]:
    legend: dict[str, Region] = {
        "r": Region("water", "THM", name="River Thames"),
        "W": Region("water", "CD", name="Canada Dock"),
        "Y": Region("water", "QP", name="Quebec Pond"),
        "R": street("RS", "Rotherhithe Street"),
        "L": street("LR", "Lower Road"),
        "D": street("RR", "Redriff Road"),
        "F": street("DR", "Dock road"),
        "x": yard("WS", "Watermen's stairs and jetty"),
        "k": yard("NQ", "North quay"),
        "j": yard("SQ", "South quay"),
        "v": yard("BND", "Tank bund"),
        "u": alley("FG", "Fire gap"),
        "A": house("GR", "granary"),
        "B": house("WH", "wharf"),
    }
    for n in range(1, 7):
        legend[str(n)] = house(f"C{n}-", f"cottage_{n}")
    for ch in "abcd":
        legend[ch] = house(f"T{ch.upper()}", f"stack_{ch}")
    legend["e"] = house("TE", "shed_e")
    legend["f"] = house("TF", "shed_f")
    legend["G"] = house("TS", "transit_shed")
    legend["O"] = house("OIL", "oil_tank")
    legend["M"] = house("DO", "dock_office")
    legend["P"] = house("GAR", "garage")
    m = Map(SURREY_GRID, legend)
    at = m.at
    west, lower, redriff = "from Rotherhithe Street", "from Lower Road", "from Redriff Road"
    doc = Doc(
        name="Surrey Commercial Docks, 7 September 1940",
        description="""
            Saturday 7 September 1940 was the first day of the Blitz proper: several hundred
            bombers came up the Thames in the late afternoon and the docks burned into the
            night. At the Surrey Commercial Docks in Rotherhithe, acres of stacked softwood
            from the Baltic and Canada went up together; the timber fires there were among
            the largest ever fought in Britain, and pumps were called in from far beyond the
            docks to relieve the local crews.

            This map is one corner of the docks: a timber yard off Lower Road with its fire
            gaps, Canada Dock and Quebec Pond to draw water from, a transit shed, an oil tank,
            and the granary, wharf and cottages along Rotherhithe Street by the river. The
            granary's basement is a public shelter. The first stick of the raid wrecked two
            of the cottages along Rotherhithe Street, burying the families at home. Place
            names are real; the layout is simplified.
        """,
        turns=40,
        seed=1940,
        wind={"from": "SW", "strong": False},
        bombing=True,
        mains="working",
        buildings=[
            building("granary", "Riverside granary", 5, basement=True),
            building("wharf", "Hardwood wharf warehouse", 4),
            *(building(f"cottage_{n}", f"Dock cottage No. {n}", 2) for n in range(1, 7)),
            *(building(f"stack_{ch}", f"Timber stacks, bay {ch.upper()}", 1) for ch in "abcd"),
            building("shed_e", "Timber shed E", 2),
            building("shed_f", "Timber shed F", 2),
            building("transit_shed", "Transit shed", 1),
            building("oil_tank", "Oil tank", 1),
            building("dock_office", "Dock office and fire post", 2),
            building("garage", "Dock company garage", 1),
        ],
    )
    timber = [a for ch in "abcdef" for a in m.areas_of(ch)] + m.areas_of("G")
    doc.features = [
        stairs(at(2, 2)),
        stairs(at(4, 6)),
        stairs(at(4, 10)),
        stairs(at(4, 14)),
        *(stairs(at(4, 18 + 2 * k)) for k in range(6)),
        stairs(at(18, 2)),
        stairs(at(18, 8)),
        stairs(at(8, 28)),
        *(store(a, 0, "wood") for a in timber),
        store(at(18, 4), 1, "wood"),
        store(at(20, 10), 1, "wood"),
        store(at(2, 10), 0, "wood"),
        store(at(4, 12), 1, "wood"),
        store(at(2, 16), 2, "wood"),
        store(at(8, 24), 0, "oil"),
        store(at(20, 26), 0, "petrol"),
        hydrant(at(6, 4), 5),
        hydrant(at(6, 20), 5),
        hydrant(at(14, 0), 4),
        hydrant(at(14, 22), 4),
        hydrant(at(22, 10), 4),
        hydrant(at(22, 26), 4),
        water(at(0, 6), 1000, "River Thames"),
        water(at(0, 10), 1000, "River Thames"),
        water(at(0, 20), 1000, "River Thames"),
        water(at(10, 12), 1000, "Canada Dock"),
        water(at(16, 20), 1000, "Canada Dock"),
        water(at(12, 24), 1000, "Quebec Pond"),
        entry(at(6, 0), west),
        entry(at(20, 0), lower),
        entry(at(22, 28), redriff),
        occupants(at(4, 2), -1, 12),
        occupants(at(2, 20), 1, 3),
        occupants(at(4, 24), 0, 4),
        occupants(at(2, 26), 1, 2),
        occupants(at(8, 28), 1, 2),
        label(at(4, 2), "Public shelter in the basement"),
        label(at(12, 4), "Quebec Yard"),
        label(at(8, 2), "Baltic deals"),
        label(at(20, 26), "Petrol"),
    ]
    doc.fires = [
        fire(at(8, 2), 0, 3),
        fire(at(8, 4), 0, 2),
        fire(at(14, 8), 0, 2),
        fire(at(18, 8), 1),
        fire(at(20, 14), 0),
        fire(at(2, 12), 3),
        fire(at(2, 0), 4),
        fire(at(2, 22), 1),
    ]
    doc.embers = [{"area": at(13, 2), "level": 0}]
    doc.damp = [at_level(at(20, 20), 0, damp=1)]
    # the stick that opened the raid wrecked two of the cottages (heavy damage, no fire),
    # burying the families at home (issue 18: rescue happens only where a wreck does not
    # burn, §9)
    doc.damage = [
        at_level(at(2, 24), 1, damage=3),
        at_level(at(4, 16), 0, damage=2),
        at_level(at(4, 24), 0, damage=4),
        at_level(at(2, 26), 1, damage=4),
    ]
    doc.rubble = [at(6, 24)]
    doc.craters = [at(22, 4)]
    doc.forces = [
        placed("FP1", "fire_party", at(8, 28), 0),
        placed("MB1", "messenger_boy", at(8, 28), 0),
        arriving("OFF", "officer", lower, 1),
        arriving("DR1", "despatch_rider", lower, 1),
        arriving("GA1", "general_appliance", lower, 1),
        arriving("GA2", "general_appliance", redriff, 1),
        arriving("SP1", "small_pump_team", west, 1),
        arriving("SP2", "small_pump_team", redriff, 2),
        arriving("RT1", "rescue_team", west, 2),
        arriving("TL1", "turntable_ladder_unit", west, 3),
        arriving("HP1", "heavy_pump", redriff, 3),
        arriving("AMB1", "ambulance", lower, 3),
        arriving("DOC1", "doctor", lower, 3),
        arriving("HR1", "heavy_rescue", west, 4),
        arriving("HL1", "hose_laying_lorry", lower, 4),
        arriving("HU1", "heavy_unit", west, 4),
        arriving("XP1", "extra_heavy_pump", lower, 5),
        arriving("MD1", "mobile_dam_unit", redriff, 6),
        arriving("CT1", "canteen_truck", redriff, 12),
    ]
    doc.objectives = [
        {"type": "protect", "building": "granary"},
        {"type": "protect", "building": "oil_tank"},
        {"type": "rescue", "at_least": 8},
        {"type": "contain", "max_destroyed": 40},
    ]
    return doc, m


EXAMPLES_BUILT: dict[str, Callable[[], tuple[Doc, Map]]] = {
    "stepney": stepney,
    "paternoster": paternoster,
    "surrey_docks": surrey_docks,
}


# -- the balance (issue 18) ----------------------------------------------------------------
#
# tools/examples/balance.json holds, per example, the changes ``tools/examples/balance.py``
# chose with ``fireground sweep`` (forces' counts, start fires, objectives' thresholds; never
# the rules), as the sweep's own keys and values in the order they are applied: the file
# written is exactly the sweep's variant of the unbalanced map (tests/test_examples_balance.py).
# Rerun balance.py when the rules or the standing orders change; it rewrites balance.json.

BALANCE_FILE = Path(__file__).resolve().parent / "balance.json"


def load_balance() -> dict[str, list[tuple[str, str]]]:
    if not BALANCE_FILE.exists():
        return {}
    raw = json.loads(BALANCE_FILE.read_text(encoding="utf-8"))
    return {slug: [(str(k), str(v)) for k, v in pairs] for slug, pairs in raw.items()}


def _set_count(doc: Doc, name: str, n: int) -> None:
    """forces.NAME.count as ``fireground sweep`` reads it: NAME a unit id (that many copies
    of it) or a unit type (the first n of the type, or copies of the last)."""
    units = doc.forces
    by_id = [u for u in units if u["id"] == name]
    of_type = [u for u in units if u["type"] == name]
    chosen = by_id or of_type
    if not chosen:
        raise ValueError(f"forces.{name}.count: no unit or unit of that type to copy")
    if by_id:
        keep, model, copies = (by_id if n else []), by_id[0], n - 1
    else:
        keep, model, copies = of_type[:n], of_type[-1], n - len(of_type)
    taken = {u["id"] for u in units}
    extra = []
    for _ in range(copies):
        k = 2
        while f"{model['id']}-{k}" in taken:
            k += 1
        taken.add(f"{model['id']}-{k}")
        extra.append({**model, "id": f"{model['id']}-{k}"})
    out = []
    for u in units:
        if any(u is c for c in chosen) and not any(u is c for c in keep):
            continue
        out.append(u)
        if u is model:
            out.extend(extra)
    doc.forces = out


def _set_fire(doc: Doc, area: str, level: int, v: int) -> None:
    """start.fires.AREA.LEVEL as the sweep reads it: replaced in place, removed at 0, else
    added at the end."""
    here = [f for f in doc.fires if (f["area"], f["level"]) == (area, level)]
    if here:
        doc.fires = [
            f if f is not here[0] else fire(area, level, v)
            for f in doc.fires
            if f is not here[0] or v
        ]
    elif v:
        doc.fires = [*doc.fires, fire(area, level, v)]


def apply_balance(doc: Doc, pairs: list[tuple[str, str]]) -> None:
    """Apply the sweep keys of balance.json to the drawn scenario, in order."""
    for key, raw in pairs:
        parts, v = key.split("."), int(raw)
        if key == "start.fires":
            doc.fires = doc.fires[:v]
        elif parts[:2] == ["start", "fires"] and len(parts) >= 4:
            _set_fire(doc, ".".join(parts[2:-1]), int(parts[-1]), v)
        elif parts[0] == "forces" and len(parts) == 3 and parts[2] == "count":
            _set_count(doc, parts[1], v)
        elif parts[0] == "objectives" and len(parts) == 3:
            k = int(parts[1]) - 1
            need = {"at_least": "rescue", "max_destroyed": "contain"}[parts[2]]
            if doc.objectives[k]["type"] != need:
                raise ValueError(f"{key}: objective {k + 1} is not {need}")
            doc.objectives[k] = {**doc.objectives[k], parts[2]: v}
        else:
            raise ValueError(f"balance.json: {key!r} is not a key the builder applies")


def _self_check(doc: Doc, m: Map) -> None:
    """Slips the drawing itself can catch before the real checks run."""
    ids = {c.area_id for c in m.cuts}
    multi = {b["id"] for b in doc.buildings if b["levels"] > 1 or b.get("basement")}
    with_stairs = {
        m.legend[c.key].building
        for c in m.cuts
        for f in doc.features
        if f["type"] == "stairwell" and f["area"] == c.area_id
    }
    missing = sorted(multi - with_stairs)
    if missing:
        raise ValueError(f"buildings with several levels but no stairwell: {missing}")
    for f in doc.features:
        if f["area"] not in ids:
            raise ValueError(f"feature on unknown area {f['area']}")
    drawn = {m.legend[c.key].building for c in m.cuts} - {None}
    listed = {b["id"] for b in doc.buildings}
    if drawn != listed:
        raise ValueError(
            f"buildings drawn but not listed or listed but not drawn: {drawn ^ listed}"
        )


def build(slug: str, balanced: bool = True) -> str:
    doc, m = EXAMPLES_BUILT[slug]()
    if balanced:
        apply_balance(doc, load_balance().get(slug, []))
    _self_check(doc, m)
    return render(doc, m)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--check", action="store_true", help="exit 1 if a file is out of date")
    ap.add_argument("--out", type=Path, default=EXAMPLES, help="folder to write into")
    ap.add_argument(
        "--unbalanced",
        action="store_true",
        help="leave out balance.json (the maps as drawn, what balance.py sweeps; needs "
        "--out another folder)",
    )
    args = ap.parse_args(argv)
    if args.unbalanced and (args.check or args.out.resolve() == EXAMPLES.resolve()):
        ap.error("--unbalanced writes to another folder (--out DIR), never over examples/")
    stale = []
    if not args.check:
        args.out.mkdir(parents=True, exist_ok=True)
    for slug in EXAMPLES_BUILT:
        path = args.out / f"{slug}.fg.yaml"
        text = build(slug, not args.unbalanced)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({text.count(chr(10))} lines)")
    for path in stale:
        print(f"out of date: {path} (run tools/examples/build_examples.py)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
