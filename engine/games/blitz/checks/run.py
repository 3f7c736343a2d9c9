"""Rules-aware checks of a scenario: ``check(scenario) -> list[Finding]``.

Errors make a scenario unplayable or ambiguous (``simulate``, ``export`` and ``analyze``
refuse them); warnings are playability concerns. Every code is listed with an example in
``docs/checks.md``. Checks work on scenarios built in code as well as loaded ones (lines
are then None), and never raise for user data: a check that fails inside becomes FG199.

The checks themselves live in :mod:`.checks_refs` (values and references),
:mod:`.checks_geometry` (polygons and overlaps) and :mod:`.checks_reach` (units, feet and
water); :mod:`.checks_context` holds :class:`Finding` and the shared inputs.

>>> from fireground.engine.board.model import Area, AreaKind, Feature, FeatureType, Scenario
>>> s = Scenario(areas=(Area("R1", AreaKind.STREET, ((0, 0), (10, 0), (10, 10), (0, 10))),),
...              features=(Feature(FeatureType.HYDRANT, "R1", pressure=3),))
>>> check(s)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ....board.model import Scenario
from . import geometry as checks_geometry
from . import reach as checks_reach
from . import refs as checks_refs
from .context import CheckContext, Finding

__all__ = [
    "check",
    "error_lines",
    "errors",
    "finding_position",
]

#: Every check. Their order does not matter: check() sorts the findings on all their fields.
_CHECKS: list[Callable[[CheckContext], Iterator[Finding]]] = [
    *checks_refs.CHECKS,
    *checks_geometry.CHECKS,
    *checks_reach.CHECKS,
]


def finding_position(scenario: Scenario, finding: Finding) -> tuple[int, int]:
    """(line, col) of a finding in its file: col is where its area's entry starts when that
    entry is on the finding's line, else 1. (0, 0) when the scenario has no file."""
    line = finding.line or 0
    if not line:
        return (0, 0)
    if finding.area is not None:
        for i, a in enumerate(scenario.areas):
            if a.id == finding.area:
                pos = scenario.source.get(("areas", i))
                if pos and pos[0] == line:
                    return (line, pos[1])
                break
    return (line, 1)


def error_lines(scenario: Scenario, path: str) -> list[str]:
    """The scenario's check errors as ``FILE:LINE:COL: CODE message`` lines (empty when it is
    playable). ``simulate``, ``export`` and ``analyze`` refuse a scenario that has any."""
    out: list[str] = []
    for f in check(scenario):
        if f.severity != "error":
            continue
        line, col = finding_position(scenario, f)
        where = f"{path}:{line}:{col}" if line else path
        out.append(f"{where}: {f.code} {f.message}")
    return out


def check(scenario: Scenario) -> list[Finding]:
    """Every finding for the scenario: errors first, then by file line and code."""
    ctx = CheckContext(scenario)
    found: list[Finding] = []
    for fn in _CHECKS:
        try:
            found.extend(fn(ctx))
        except Exception as exc:  # a bug or an input no check foresaw: report, don't raise
            name = fn.__name__.lstrip("_")
            found.append(Finding("FG199", "error", f"internal failure in check {name}: {exc!r}"))
    return sorted(set(found), key=lambda f: f.sort_key)


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "error"]
