"""Layouts as data: YAML maps of named boxes in ``templates/layouts/``.

A layout names its unit (``mm``), optionally its size, a few named lengths and a map of
boxes. ``extends: other`` starts from another layout and deep-merges this one over it, so a
bleed card or a landscape page only states what differs. Box geometry is written from the
top-left corner of the container (as a designer measures a page) and may use expressions
over ``W``, ``H`` (the container size) and the layout's named lengths, e.g.
``width: W - 2*margin``. Everything is evaluated in the layout's unit and converted to PDF
points last, when a :class:`Layout` is made; the boxes it hands out are in points with
reportlab's bottom-left origin. Renderers take every coordinate from here.

>>> lay = layout("card_front")
>>> round(lay.width / 72 * 25.4, 1)
63.5
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

MM = 72.0 / 25.4
CM = 10 * MM
UNITS = {"mm": MM, "cm": CM, "in": 72.0, "pt": 1.0}
#: Box keys that are lengths in the layout's unit (everything else is passed through).
LENGTH_KEYS = frozenset({"x", "y", "width", "height", "padding", "radius", "inset"})


class LayoutError(ValueError):
    """A layout template that cannot be resolved (unknown name, cycle, bad expression)."""


@dataclass(frozen=True)
class Box:
    """A rectangle in points, bottom-left origin, plus its style keys (font, align, ...)."""

    name: str
    x: float
    y: float
    width: float
    height: float
    style: Mapping[str, Any] = field(default_factory=dict)

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def right(self) -> float:
        return self.x + self.width

    def get(self, key: str, default: Any = None) -> Any:
        return self.style.get(key, default)

    def length(self, key: str, default: float = 0.0) -> float:
        """A style length (already in points)."""
        return float(self.style.get(key, default))

    def inset(self, d: float) -> Box:
        return Box(
            self.name, self.x + d, self.y + d, self.width - 2 * d, self.height - 2 * d, self.style
        )


@dataclass(frozen=True)
class Layout:
    name: str
    width: float
    height: float
    lengths: Mapping[str, float]
    settings: Mapping[str, Any]
    boxes: Mapping[str, Box]

    def box(self, name: str) -> Box:
        try:
            return self.boxes[name]
        except KeyError:
            raise LayoutError(f"layout {self.name!r} has no box {name!r}") from None

    def length(self, name: str) -> float:
        try:
            return self.lengths[name]
        except KeyError:
            raise LayoutError(f"layout {self.name!r} has no length {name!r}") from None

    def setting(self, name: str, default: Any = None) -> Any:
        return self.settings.get(name, default)


# -- loading and inheritance ---------------------------------------------------------------
@cache
def _raw_layouts() -> dict[str, dict[str, Any]]:
    """Every layout of every ``templates/layouts/*.yaml`` file, by name."""
    folder = resources.files("fireground.templates").joinpath("layouts")
    out: dict[str, dict[str, Any]] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yaml"):
            continue
        data = yaml.safe_load(entry.read_text("utf-8")) or {}
        for name, spec in data.items():
            if name in out:
                raise LayoutError(f"layout {name!r} is defined twice ({entry.name})")
            out[name] = spec
    return out


def layout_names() -> list[str]:
    return sorted(_raw_layouts())


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def resolved(name: str, _seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The raw layout with its ``extends`` chain merged in (still in layout units)."""
    raw = _raw_layouts()
    if name not in raw:
        raise LayoutError(f"unknown layout {name!r}")
    if name in _seen:
        raise LayoutError(f"layout {name!r} extends itself ({' -> '.join((*_seen, name))})")
    spec = dict(raw[name])
    parent = spec.pop("extends", None)
    if parent is None:
        return spec
    return _merge(resolved(str(parent), (*_seen, name)), spec)


# -- expressions ---------------------------------------------------------------------------
_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.USub: operator.neg,
}


def evaluate(expr: Any, names: Mapping[str, float]) -> float:
    """A number, or an arithmetic expression over ``names`` (no calls, no attributes)."""
    if isinstance(expr, bool):
        raise LayoutError(f"expected a length, got {expr!r}")
    if isinstance(expr, int | float):
        return float(expr)
    if not isinstance(expr, str):
        raise LayoutError(f"expected a length, got {expr!r}")
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as exc:
        raise LayoutError(f"bad length expression {expr!r}") from exc

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise LayoutError(f"unknown name {node.id!r} in {expr!r}")
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return float(_OPS[type(node.op)](ev(node.left), ev(node.right)))  # type: ignore[operator]
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return float(_OPS[type(node.op)](ev(node.operand)))  # type: ignore[operator]
        raise LayoutError(f"unsupported length expression {expr!r}")

    return ev(tree)


# -- instantiation -------------------------------------------------------------------------
def layout(name: str, width: float | None = None, height: float | None = None) -> Layout:
    """Instantiate a layout. ``width``/``height`` (points) give the container size for
    layouts without a fixed ``size`` (pages, whose size is the paper)."""
    return _layout(name, width, height)


@cache
def _layout(name: str, width: float | None, height: float | None) -> Layout:
    spec = resolved(name)
    unit = UNITS.get(str(spec.get("unit", "mm")))
    if unit is None:
        raise LayoutError(f"layout {name!r}: unknown unit {spec.get('unit')!r}")
    names: dict[str, float] = {}
    if "size" in spec:
        w_u, h_u = (evaluate(v, {}) for v in spec["size"])
    elif width is not None and height is not None:
        w_u, h_u = width / unit, height / unit
    else:
        raise LayoutError(f"layout {name!r} has no size: pass the page size")
    names.update(W=w_u, H=h_u)
    lengths_u: dict[str, float] = {}
    for key, val in (spec.get("lengths") or {}).items():
        lengths_u[key] = evaluate(val, {**names, **lengths_u})
    names.update(lengths_u)
    boxes: dict[str, Box] = {}
    for bname, bspec in (spec.get("boxes") or {}).items():
        if bspec is None:  # a child may remove a parent's box with `name: null`
            continue
        geo = {k: evaluate(bspec.get(k, 0), names) for k in ("x", "y", "width", "height")}
        style = {
            k: (evaluate(v, names) * unit if k in LENGTH_KEYS else v)
            for k, v in bspec.items()
            if k not in ("x", "y", "width", "height")
        }
        # top-left (layout) -> bottom-left (PDF), converted to points last
        boxes[bname] = Box(
            bname,
            geo["x"] * unit,
            (h_u - geo["y"] - geo["height"]) * unit,
            geo["width"] * unit,
            geo["height"] * unit,
            style,
        )
    return Layout(
        name=name,
        width=w_u * unit,
        height=h_u * unit,
        lengths={k: v * unit for k, v in lengths_u.items()},
        settings=dict(spec.get("settings") or {}),
        boxes=boxes,
    )
