"""The tracing background (the ``background`` format extension), without Qt widgets.

In a file the image path is relative to the scenario's folder. While a scenario is open
the editor keeps it absolute, so undo, autosave and Save As to another folder never
disturb it; :func:`for_save` makes it relative again for the folder being written.
"""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

from fireground.engine.board.model import Background, Point, Scenario

#: What the import dialog offers.
IMAGE_FILTER = "Images (*.png *.jpg *.jpeg);;All files (*)"


def absolute(image: str, folder: str | Path | None) -> str:
    """``image`` as an absolute path, read relative to ``folder`` (default: current)."""
    p = Path(image).expanduser()
    if not p.is_absolute():
        p = Path(folder or os.getcwd()) / p
    return os.path.normpath(str(p))


def relative(image: str, folder: str | Path) -> str:
    """``image`` (absolute) relative to ``folder`` with ``/`` separators, as the file keeps
    it; an image on another drive stays absolute."""
    try:
        rel = os.path.relpath(image, os.fspath(folder))
    except ValueError:  # Windows: another drive
        return image
    return Path(rel).as_posix()


def on_open(s: Scenario, path: str | Path | None) -> Scenario:
    """The scenario as the editor keeps it: the background image path made absolute."""
    bg = s.background
    if bg is None:
        return s
    folder = Path(path).parent if path else None
    full = absolute(bg.image, folder)
    return s if full == bg.image else replace(s, background=replace(bg, image=full))


def for_save(s: Scenario, path: str | Path) -> Scenario:
    """The scenario to write at ``path``: the image path relative to that file's folder."""
    bg = s.background
    if bg is None:
        return s
    folder = Path(os.path.abspath(os.fspath(path))).parent
    rel = relative(absolute(bg.image, None), folder)
    return replace(s, background=replace(bg, image=rel))


def image_problem(bg: Background | None, folder: str | Path | None = None) -> str | None:
    """Why the image cannot be shown (a warning, never an error), or None."""
    if bg is None:
        return None
    p = absolute(bg.image, folder)
    if not os.path.exists(p):
        return f"background image not found: {bg.image}"
    if not os.path.isfile(p):
        return f"background image is not a file: {bg.image}"
    return None


def rescale(bg: Background, a: Point, b: Point, distance_cm: float) -> Background:
    """Scale the image so the map points ``a`` and ``b`` end up ``distance_cm`` apart.

    ``a`` stays where it is on the table (the image grows or shrinks around it), so the
    point clicked first remains a fixed reference for further tracing.
    """
    measured = math.dist(a, b)
    if measured <= 0:
        raise ValueError("click two different points")
    if not (distance_cm > 0 and math.isfinite(distance_cm)):
        raise ValueError("the distance must be a positive number of cm")
    k = distance_cm / measured
    ox, oy = bg.origin
    origin = (a[0] + (ox - a[0]) * k, a[1] + (oy - a[1]) * k)
    return replace(bg, cm_per_px=bg.cm_per_px * k, origin=origin)


def new_background(
    image: str, image_px: tuple[int, int], map_bounds: tuple[float, float, float, float]
) -> Background:
    """A fresh background over the map: its top-left at the map's north-west corner and as
    wide as the map (or 100 cm on an empty map); set the true scale with two clicks."""
    minx, _miny, maxx, maxy = map_bounds
    width_cm = max(maxx - minx, 100.0)
    if maxx <= minx:
        minx, maxy = 0.0, 100.0
    cm_per_px = width_cm / max(image_px[0], 1)
    return Background(image=image, origin=(minx, maxy), cm_per_px=cm_per_px, opacity=0.5)
