"""Every terrain kind stays distinct when printed in black and white."""

from __future__ import annotations

import itertools

from fireground.export.mapdraw import style

#: The smallest step in grey (0-255) we count as telling two fills apart on paper.
MIN_STEP = 12


def grey(colour: str) -> float:
    """The grey a black-and-white print gives a colour (ITU-R BT.601 luma, 0-255)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_terrain_kinds_differ_in_greyscale() -> None:
    fills = style().setting("fill")
    assert set(fills) == {"building", "street", "open", "water"}
    for (a, ca), (b, cb) in itertools.combinations(fills.items(), 2):
        assert abs(grey(ca) - grey(cb)) >= MIN_STEP, (a, b, grey(ca), grey(cb))
    # the pair the issue found: street (vehicles) and open ground (foot only)
    assert abs(grey(fills["street"]) - grey(fills["open"])) >= 3 * MIN_STEP


def test_grey_is_the_printers_luma() -> None:
    assert grey("#ffffff") == 255 and grey("#000000") == 0
    assert round(grey("#efe2c8")) == 227  # the building fill, as the issue measured it
