"""Writing a scenario as YAML text: deterministic, readable, and read back unchanged.

The text is produced by hand rather than by ``yaml.dump`` so that the layout is fixed
(key order of scenario-format.md, one feature or unit per line, polygons as flow lists)
and so that quoting follows *our* reader: any string that would read back as something
else (``NO``, ``on``, ``12``, ``1e3``, ``null``, text with ``:`` or ``#``) is quoted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..board.model import FORMAT_VERSION, Feature, ForceUnit, Objective, Scale, Scenario, Wind

SCHEMA_URL = "https://fireground.invalid/schema/scenario-v1.schema.json"
"""Where the header comment points yaml-language-server (``fireground schema`` prints it)."""

#: Strings safe as plain scalars in block and flow context: no indicator characters, and
#: checked against the resolver so ``true``, ``12`` and the like get quotes.
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./()' -]*\Z")
#: YAML 1.1 words other readers take for booleans or null; quoted for their sake.
_YAML11_WORDS = frozenset(["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"])
_NEEDS_ESCAPE = re.compile(
    r"[^\x20\x21\x23-\x5b\x5d-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
    r"\U00010000-\U0010ffff]"
)
_BLOCK_OK = re.compile(
    "[\n\t\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]*\\Z"
)
#: A line of nothing but blanks: a literal block could not keep it exactly.
_BLANKISH = re.compile(r"(?:^|\n)[ \t]+(?:\n|\Z)")
_ESC = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\", "\0": "\\0"}


def text(s: str) -> str:
    """``s`` as a YAML scalar that reads back as the same string."""
    if (
        _PLAIN.match(s)
        and not s.endswith(" ")
        and "  " not in s
        and s.lower() not in _YAML11_WORDS
        and s[0] not in "-."
    ):
        return s
    return '"' + _NEEDS_ESCAPE.sub(_escape, s) + '"'


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    if ch in _ESC:
        return _ESC[ch]
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def number(v: float) -> str:
    """Integral numbers without a decimal point; others as Python's shortest repr."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


def value(v: Any) -> str:
    """Any JSON-like value in flow style (used for house rules)."""
    if v is None:
        return "null"
    if isinstance(v, str):
        return text(v)
    if isinstance(v, bool | int | float):
        return number(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{text(str(k))}: {value(x)}" for k, x in sorted(v.items())) + "}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} in a scenario")


def flow(pairs: Iterable[tuple[str, str | None]]) -> str:
    """A one-line flow mapping of already-formatted values (None values are left out)."""
    return "{" + ", ".join(f"{k}: {v}" for k, v in pairs if v is not None) + "}"


def _point(p: tuple[float, float]) -> str:
    x, y = p
    return f"[{number(x)}, {number(y)}]"


def _description(s: str, indent: str) -> str:
    """A literal block for multi-line text when that is exact, else a quoted string."""
    if (
        "\n" in s
        and s[0] not in " \t\n"
        and _BLOCK_OK.match(s)
        and not s.endswith("\n\n")
        and not _BLANKISH.search(s)
    ):
        head = "|" if s.endswith("\n") else "|-"
        body = s[:-1] if s.endswith("\n") else s
        lines = [(indent + ln) if ln else "" for ln in body.split("\n")]
        return head + "\n" + "\n".join(lines)
    return text(s)


def dump_scenario(s: Scenario, schema_url: str = SCHEMA_URL) -> str:
    """The YAML text of ``s``; equal scenarios give identical text."""
    out: list[str] = [
        f"# yaml-language-server: $schema={schema_url}",
        f"fireground: {FORMAT_VERSION}",
    ]
    out.append(f"name: {text(s.name)}")
    if s.description:
        out.append(f"description: {_description(s.description, '  ')}")
    out.append(f"ruleset: {text(s.ruleset)}")
    if s.house_rules:
        out.append(f"house_rules: {value(dict(s.house_rules))}")
    out.append(f"scale: {_scale(s.scale)}")
    out.append(f"turns: {s.turns}")
    if s.seed is not None:
        out.append(f"seed: {s.seed}")
    out.append(f"wind: {_wind(s.wind)}")
    out.append(f"bombing: {number(s.bombing)}")
    out.append(f"mains: {text(s.mains)}")

    out.append("")
    out.append("buildings:" + ("" if s.buildings else " []"))
    for b in s.buildings:
        pairs = [("id", text(b.id)), ("name", text(b.name) if b.name else None)]
        pairs += [("levels", str(b.levels)), ("basement", number(b.basement))]
        out.append("  - " + flow(pairs))

    out.append("")
    out.append("areas:" + ("" if s.areas else " []"))
    for a in s.areas:
        out.append(f"  - id: {text(a.id)}")
        out.append(f"    kind: {a.kind.value}")
        if a.building is not None:
            out.append(f"    building: {text(a.building)}")
        if a.name:
            out.append(f"    name: {text(a.name)}")
        pts = ", ".join(_point(p) for p in a.polygon)
        out.append(f"    polygon: [{pts}]")

    out.append("")
    out.append("features:" + ("" if s.features else " []"))
    out.extend("  - " + _feature(f) for f in s.features)

    out.append("")
    out.append("start:")
    st = s.start
    for key, items in (("fires", st.fires), ("embers", st.embers), ("damp", st.damp),
                       ("damage", st.damage)):  # fmt: skip
        out.append(f"  {key}:" + ("" if items else " []"))
        for it in items:
            val = getattr(it, "value", None)
            pairs = [("area", text(it.area)), ("level", str(it.level))]
            if val is not None:
                pairs.append((key.rstrip("s") if key == "fires" else key, str(val)))
            out.append("    - " + flow(pairs))
    out.append(f"  rubble: [{', '.join(text(r) for r in st.rubble)}]")
    out.append(f"  craters: [{', '.join(text(r) for r in st.craters)}]")
    out.append(f"  all_clear: {number(st.all_clear)}")

    out.append("")
    out.append("forces:" + ("" if s.forces else " []"))
    out.extend("  - " + _unit(u) for u in s.forces)
    if s.objectives:
        out.append("")
        out.append("objectives:")
        out.extend("  - " + _objective(o) for o in s.objectives)
    if s.background is not None:
        bg = s.background
        out.append("")
        out.append(
            "background: "
            + flow(
                [
                    ("image", text(bg.image)),
                    ("origin", _point(bg.origin)),
                    ("cm_per_px", number(bg.cm_per_px)),
                    ("opacity", number(bg.opacity)),
                    ("locked", number(bg.locked)),
                ]
            )
        )
    if s.geo is not None:
        geo = s.geo
        out.append("")
        out.append(
            "geo: "
            + flow(
                [
                    ("origin", _point(geo.origin)),
                    ("metres_per_cm", number(geo.metres_per_cm)),
                    ("crs", text(geo.crs) if geo.crs is not None else None),
                ]
            )
        )
    return "\n".join(out) + "\n"


def _scale(sc: Scale) -> str:
    d = Scale()
    pairs = [("area_cm", number(sc.area_cm)), ("figure_mm", number(sc.figure_mm))]
    if sc.min_contact_cm != d.min_contact_cm:
        pairs.append(("min_contact_cm", number(sc.min_contact_cm)))
    if sc.overlap_tolerance_cm2 != d.overlap_tolerance_cm2:
        pairs.append(("overlap_tolerance_cm2", number(sc.overlap_tolerance_cm2)))
    return flow(pairs)


def _wind(w: Wind) -> str:
    return flow([("from", text(w.from_) if w.from_ else None), ("strong", number(w.strong))])


def _feature(f: Feature) -> str:
    def opt(v: str | int | None) -> str | None:
        if v is None:
            return None
        return text(v) if isinstance(v, str) else number(v)

    return flow(
        [
            ("type", f.type.value),
            ("area", text(f.area)),
            ("level", opt(f.level)),
            ("material", f.material.value if f.material else None),
            ("pressure", opt(f.pressure)),
            ("points", opt(f.points)),
            ("count", opt(f.count)),
            ("name", opt(f.name)),
            ("text", opt(f.text)),
        ]
    )


def _unit(u: ForceUnit) -> str:
    return flow(
        [
            ("id", text(u.id)),
            ("type", text(u.type)),
            ("area", text(u.area) if u.area is not None else None),
            ("level", str(u.level) if u.level != 0 else None),
            ("entry", text(u.entry) if u.entry is not None else None),
            ("arrives", str(u.arrives) if u.arrives != 1 else None),
            ("dam_points", str(u.dam_points) if u.dam_points is not None else None),
        ]
    )


def _objective(o: Objective) -> str:
    return flow(
        [
            ("type", text(o.type)),
            ("building", text(o.building) if o.building is not None else None),
            ("area", text(o.area) if o.area is not None else None),
            ("at_least", str(o.at_least) if o.at_least is not None else None),
            ("max_destroyed", str(o.max_destroyed) if o.max_destroyed is not None else None),
        ]
    )
