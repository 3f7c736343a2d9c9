"""The quick reference sheet, written from the ruleset data as played.

Every number on it is read from the scenario's ruleset with its house rules applied, through
the sentences of ``templates/layouts/reference.yaml``; a value changed by a house rule is
starred. The first page holds the whole turn; then the rules summary, the house rules, and
every value in play (each with a few words from the layout's ``descriptions``, the bare key
when none fits), leaving out the program's own tuning keys (``internal``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepTogether, PageBreak
from reportlab.platypus.flowables import Flowable

from fireground.engine.board.model import Scenario

from ... import flow
from ...kit import paper_size
from ...layout import layout

_FIELD = re.compile(r"\{(\+?)([A-Za-z0-9_.]+)\}")
HOUSE_MARK = "★"


class Rules:
    """Dotted look-ups into the ruleset with house rules applied."""

    def __init__(self, scenario: Scenario | None) -> None:
        from fireground.engine.core import ruleset as rs

        name = scenario.ruleset if scenario is not None else "blitz"
        house = dict(scenario.house_rules) if scenario is not None else {}
        self.name = name
        self.house = house
        self.data: Mapping[str, Any] = rs.load_ruleset(name, house).data

    def get(self, key: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, Mapping) and part.lstrip("-").isdigit() and int(part) in node:
                node = node[int(part)]
            else:
                return None
        return node

    def is_house(self, key: str) -> bool:
        return any(key == h or key.startswith(h + ".") for h in self.house)


def _fmt(value: Any, signed: bool = False) -> str:
    if value is None:
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_fmt(v) for v in value)
    if signed and isinstance(value, int | float):
        return f"{value:+g}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def fill(text: str, rules: Rules) -> str:
    """Replace ``{key}`` / ``{+key}`` by the value in play (starred if a house rule)."""

    def sub(m: re.Match[str]) -> str:
        key = m.group(2)
        out = _fmt(rules.get(key), signed=bool(m.group(1)))
        return out + HOUSE_MARK if rules.is_house(key) else out

    return _FIELD.sub(sub, text)


def _text_settings() -> tuple[Mapping[str, str], Mapping[str, str]]:
    """The value names and key descriptions of ``reference_text``."""
    lay = layout("reference_text")
    return lay.setting("value_names") or {}, lay.setting("descriptions") or {}


def describe(key: str, descriptions: Mapping[str, str] | None = None) -> str:
    """A few words saying what ruleset ``key`` is, from the layout data; the key if unknown.

    A pattern part ``*`` matches any one part of the key, and ``{*}`` in its text repeats
    the matched parts (underscores read as spaces). An exact entry wins over a pattern.
    """
    if descriptions is None:
        descriptions = _text_settings()[1]
    if key in descriptions:
        return str(descriptions[key])
    parts = key.split(".")
    for pattern, text in descriptions.items():
        pat = str(pattern).split(".")
        if len(pat) != len(parts) or "*" not in pat:
            continue
        if all(p in ("*", k) for p, k in zip(pat, parts, strict=True)):
            wild = [k.replace("_", " ") for p, k in zip(pat, parts, strict=True) if p == "*"]
            return str(text).replace("{*}", ", ".join(wild))
    return key


def _section_table(sec: Mapping[str, Any], rules: Rules, style: Any, width: float) -> Flowable:
    key = str(sec["table"])
    data = rules.get(key) or {}
    cols = list(sec.get("columns") or ["key", "value"])
    names: Mapping[str, str] = {**_text_settings()[0], **(sec.get("names") or {})}
    rows: list[list[str]] = [cols]
    for k, v in data.items() if isinstance(data, Mapping) else []:
        mark = HOUSE_MARK if rules.is_house(f"{key}.{k}") else ""
        if isinstance(v, Mapping):
            rows.append([str(k)] + [_fmt(v.get(c)) + mark for c in sec.get("keys") or list(v)])
        else:
            rows.append([str(k), names.get(str(v), _fmt(v, bool(sec.get("signed")))) + mark])
    n = len(cols)
    return flow.table(rows, style, [width / n] * n)


def _leaves(node: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(node, Mapping):
        out: list[tuple[str, Any]] = []
        for k, v in node.items():
            out += _leaves(v, f"{prefix}{k}.")
        return out
    return [(prefix[:-1], node)]


def story(scenario: Scenario | None, width: float, base: float) -> list[Flowable]:
    """Page 1: the whole turn on one side (``quick``). Then the rules summary, every house
    rule in play, and every number in play."""
    rules = Rules(scenario)
    st = flow.styles(base)
    text = layout("reference_text")
    out: list[Flowable] = [flow.para(str(text.setting("quick_title")), st["h1"])]
    for sec in text.setting("quick") or []:
        out.append(flow.para(str(sec["title"]), st["h2"]))
        out += [flow.para(fill(str(line), rules), st["body"]) for line in sec.get("lines", [])]
    out.append(flow.para(str(text.setting("quick_end")), st["small"]))
    out.append(PageBreak())
    out.append(flow.para(str(text.setting("summary_title")), st["h1"]))
    if rules.house:
        listed = "; ".join(f"{k} = {_fmt(v)}" for k, v in sorted(rules.house.items()))
        out.append(flow.para(f"House rules in play ({HOUSE_MARK}): {listed}.", st["body"]))
    else:
        out.append(
            flow.para("No house rules: the rules as written, with the rulings R-n.", st["body"])
        )
    for sec in text.setting("sections") or []:
        parts: list[Flowable] = [flow.para(str(sec["title"]), st["h2"])]
        parts += [flow.para(fill(str(line), rules), st["body"]) for line in sec.get("lines", [])]
        if sec.get("table"):
            parts.append(_section_table(sec, rules, st["cell"], width * 0.9))
        out.append(KeepTogether(parts))
    out.append(flow.para("Every number in play", st["h2"]))
    out.append(values_table(rules, st["small"], width))
    return out


def value_rows(rules: Rules) -> list[tuple[str, str, str]]:
    """(what it is, house-rule key, value as played) for every non-unit value of the ruleset;
    a house-ruled value is starred."""
    names, descriptions = _text_settings()
    internal = set(layout("reference_text").setting("internal") or [])
    rows = []
    for k, v in _leaves(rules.data):
        # units have their cards; policy.* is how cautious the autopilot is, not a rule
        if k.startswith(("units.", "policy.")) or k in internal:
            continue
        value = names.get(v, _fmt(v)) if isinstance(v, str) else _fmt(v)
        rows.append(
            (describe(k, descriptions), k, value + (HOUSE_MARK if rules.is_house(k) else ""))
        )
    return rows


def values_table(rules: Rules, style: ParagraphStyle, width: float) -> Flowable:
    key_style = ParagraphStyle(
        "key", parent=style, fontSize=style.fontSize * 0.84, textColor=colors.HexColor("#6b5d45")
    )
    rows: list[list[Any]] = [["what", "house-rule key", "value"]]
    rows += [[what, flow.para(k, key_style), v] for what, k, v in value_rows(rules)]
    return flow.table(rows, style, [width * 0.47, width * 0.34, width * 0.19])


def write_reference(scenario: Scenario | None, path: Path, paper: str = "a4") -> Path:
    pw, ph = paper_size(paper)
    lay = layout("reference_page", pw, ph)
    columns = int(lay.setting("columns", 2))
    gap = lay.length("column_gap")
    width = flow.column_width(lay, columns, gap)
    base = float(lay.box("body").get("font_size", 7.2))
    name = scenario.name if scenario is not None and scenario.name else "BLITZ!"
    ruleset = scenario.ruleset if scenario is not None else "blitz"
    house = (
        f", {len(scenario.house_rules)} house rule(s) ★"
        if scenario and scenario.house_rules
        else ""
    )
    return flow.build(
        path,
        lay,
        story(scenario, width, base),
        title="BLITZ! quick reference",
        subtitle=f"{name} · ruleset {ruleset}{house} · d6 = one six-sided die",
        footer="fireground: numbers as played, from the ruleset data",
        columns=columns,
        gap=gap,
    )
