"""The quick check near an edit agrees with a full check of the whole map."""

from __future__ import annotations

from fireground.editor import ops
from fireground.editor.local_check import LocalChecker
from fireground.engine.board.model import Area, AreaKind
from fireground.engine.games.blitz.checks.run import check
from fireground.engine.scenario.synthetic import synthetic_city


def key(findings: list) -> set[tuple[str, str | None, str]]:  # type: ignore[type-arg]
    return {(f.code, f.area, f.message) for f in findings}


def test_local_findings_match_a_full_check() -> None:
    s = synthetic_city(400, seed=2)
    before = check(s)
    lc = LocalChecker()
    victim = s.areas[150]
    (x0, y0), (x1, y1) = victim.polygon[0], victim.polygon[2]
    # Grow one area over its neighbours: overlaps appear near it and nowhere else.
    grown = ((x0 - 3, y0 - 3), (x1 + 3, y0 - 3), (x1 + 3, y1 + 3), (x0 - 3, y1 + 3))
    edits = [
        ops.set_polygon(s, victim.id, grown),
        ops.add_areas(
            s, [Area("ZZ1", AreaKind.OPEN, ((x0 + 1, y0 + 1), (x0 + 4, y0 + 1), (x0 + 4, y0 + 4)))]
        ),
        ops.remove_areas(s, [victim.id]),
    ]
    for new in edits:
        local = lc.findings(s, new, before, check)
        assert local is not None
        assert key(local) == key(check(new))
    assert any(f.code == "FG112" for f in lc.findings(s, edits[0], before, check) or [])


def test_settings_edits_need_a_full_check() -> None:
    s = synthetic_city(50, seed=1)
    assert LocalChecker().findings(s, ops.set_settings(s, turns=3), [], check) is None
