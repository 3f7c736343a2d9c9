"""Ruleset data: every number of the rules lives in a YAML file in ``rulesets/``.

A :class:`Ruleset` is that data with a scenario's house rules applied. Values are read by
dotted key, and a key the ruleset does not know is an error that names the closest one:

>>> rules = load_ruleset("blitz", {"growth.on": 5})
>>> rules["growth.on"]
5
>>> rules.units["general_appliance"]["fire_teams"]
3
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any

from .yamlsafe import parse, resolve_plain


@cache
def bundled_rulesets() -> dict[str, str]:
    """The rulesets a scenario's ``ruleset:`` may name, as name -> the package holding
    ``<name>.yaml``: those the pack of the v1 format's game (a file without ``game:``)
    bundles, its ``rulesets`` hook (see :mod:`.game`). Cached; do not mutate."""
    from .game import hook
    from .packs import default_pack

    return dict(hook(default_pack(), "rulesets") or {})


def known_rulesets() -> tuple[str, ...]:
    """The names of :func:`bundled_rulesets`, in the pack's order."""
    return tuple(bundled_rulesets())


class RulesetError(ValueError):
    """An unknown ruleset, an unknown rule key, or a house rule that does not fit it."""


def _plain(data: Any) -> Any:
    """Plain dicts and lists (the reader's position-keeping containers are not needed).

    The reader keeps mapping keys as text; table rows are keyed by die score, so keys are
    typed like values (``1`` is the integer 1)."""
    if isinstance(data, dict):
        return {resolve_plain(k) if k else k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


@cache
def ruleset_data(name: str) -> dict[str, Any]:
    """The raw data of a bundled ruleset (cached; do not mutate)."""
    bundled = bundled_rulesets()
    if name not in bundled:
        hint = _did_you_mean(name, tuple(bundled))
        raise RulesetError(f"unknown ruleset {name!r}{hint}")
    text = resources.files(bundled[name]).joinpath(f"{name}.yaml").read_text("utf-8")
    # the same defensive reader as scenario files: only true/false are booleans (keys such
    # as ``on`` stay strings), no aliases or tags
    data = _plain(parse(text, f"{name}.yaml", text_keys=False))
    if not isinstance(data, dict):
        raise RulesetError(f"ruleset {name!r} is not a mapping")
    return data


def unit_types(name: str = "blitz") -> tuple[str, ...]:
    """Unit type ids the ruleset knows, in catalogue order."""
    units = ruleset_data(name).get("units", {})
    return tuple(units)


def _did_you_mean(key: str, choices: Iterator[str] | tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(key, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _leaf_keys(data: Mapping[Any, Any], prefix: str = "") -> Iterator[str]:
    for k, v in data.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            yield from _leaf_keys(v, key + ".")
        else:
            yield key


def _kind(value: Any) -> str:
    """The type name a house rule must match (ints are accepted where floats are)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number" if isinstance(value, float) else "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, Mapping):
        return "mapping"
    return "null" if value is None else type(value).__name__


def _fits(old: Any, new: Any) -> bool:
    ko, kn = _kind(old), _kind(new)
    if ko == kn:
        return True
    # a float rule accepts an int value; null rules (e.g. "no limit") accept numbers
    return (ko == "number" and kn == "int") or (ko == "null" and kn in ("int", "number"))


class Ruleset:
    """The data of one ruleset with house rules applied (treat as read-only)."""

    def __init__(
        self, name: str, data: dict[str, Any], house_rules: Mapping[str, Any] | None = None
    ) -> None:
        self.name = name
        self.data = data
        self.house_rules: dict[str, Any] = dict(house_rules or {})
        self._cache: dict[str, Any] = {}
        self._ints: dict[str, int] = {}

    # -- access ----------------------------------------------------------------------------
    def _walk(self, key: str) -> tuple[Any, Any]:
        """(parent container, last segment as stored) for a dotted key, or raise."""
        node: Any = self.data
        parts = key.split(".")
        parent: Any = None
        seg: Any = None
        for i, part in enumerate(parts):
            if not isinstance(node, Mapping):
                raise self._unknown(key)
            seg = part
            if part not in node:
                # YAML keys may be integers (e.g. the bomb load table by die score)
                if part.lstrip("-").isdigit() and int(part) in node:
                    seg = int(part)
                else:
                    raise self._unknown(key, ".".join(parts[:i]))
            parent, node = node, node[seg]
        return parent, seg

    def _unknown(self, key: str, known_prefix: str = "") -> RulesetError:
        hint = _did_you_mean(key, list(_leaf_keys(self.data)))
        return RulesetError(f"unknown rule {key!r} in ruleset {self.name!r}{hint}")

    def __getitem__(self, key: str) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            parent, seg = self._walk(key)
            value = parent[seg]
            self._cache[key] = value
            return value

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self._walk(key)
        except RulesetError:
            return False
        return True

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default`` when the ruleset does not have it."""
        try:
            return self[key]
        except RulesetError:
            return default

    def int(self, key: str) -> int:
        try:
            return self._ints[key]
        except KeyError:
            pass
        value = self[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(f"rule {key!r} is not an integer: {value!r}")
        self._ints[key] = value
        return value

    @property
    def units(self) -> Mapping[str, dict[str, Any]]:
        """The unit catalogue (§11): type id → equipment dict."""
        units: Mapping[str, dict[str, Any]] = self.data.get("units", {})
        return units

    def keys(self) -> list[str]:
        """Every dotted leaf key, in file order."""
        return list(_leaf_keys(self.data))

    def __repr__(self) -> str:
        return f"load_ruleset({self.name!r}, {self.house_rules!r})"


def load_ruleset(name: str = "blitz", house_rules: Mapping[str, Any] | None = None) -> Ruleset:
    """The named ruleset with ``house_rules`` (dotted key → value) applied.

    Raises :class:`RulesetError` for an unknown ruleset, an unknown key (with a did-you-mean)
    or a value whose type does not match the rule it replaces.
    """
    data = copy.deepcopy(ruleset_data(name))
    rules = Ruleset(name, data, house_rules)
    for key, value in (house_rules or {}).items():
        if not isinstance(key, str):
            raise RulesetError(f"house rule key {key!r} must be a dotted name")
        parent, seg = rules._walk(key)
        old = parent[seg]
        if not _fits(old, value):
            raise RulesetError(
                f"house rule {key!r} must be {_kind(old)} like {old!r}, not {_kind(value)} "
                f"{value!r}"
            )
        if isinstance(old, Mapping):
            unknown = [k for k in value if k not in old]
            if unknown:
                raise RulesetError(f"house rule {key!r} has unknown key {unknown[0]!r}")
            merged = dict(old)
            for k, v in value.items():
                if not _fits(old[k], v):
                    raise RulesetError(f"house rule {key}.{k} must be {_kind(old[k])}, not {v!r}")
                merged[k] = v
            value = merged
        parent[seg] = value
    return rules
