"""The editor and hostile files (docs/reliability.md, "Hostile files").

``fireground edit FILE`` refuses every file of the hostile corpus that the loader refuses
(exit 2, ``FILE:LINE:COL: message`` at the place tests/hostile names, no traceback, no
window, nothing written), and opens the map-level ones (bow ties, zero-area polygons,
overlaps) and those whose features, units, start or objectives name what is not there
(the editor can save those, so it must open them): the editor is where a user repairs them.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from fireground.cli import main

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"


def _corpus() -> tuple[dict[str, str], list[str]]:
    spec = importlib.util.spec_from_file_location("hostile_corpus", HOSTILE / "test_hostile.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return dict(mod.FORMAT_LEVEL), list(mod.MAP_LEVEL)


FORMAT_LEVEL, MAP_LEVEL = _corpus()
#: Refused by the loader, opened by the editor: dangling references it can fix.
FIXABLE = {"dangling_refs.fg.yaml": {"FG124", "FG141"}}


@pytest.mark.parametrize("name", sorted(set(FORMAT_LEVEL) - set(FIXABLE)))
def test_editor_refuses_a_hostile_file(
    name: str, tmp_path: Path, qapp: object, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("FIREGROUND_RECOVERY_DIR", str(tmp_path / "recovery"))
    monkeypatch.delenv("FIREGROUND_DEBUG", raising=False)
    path = HOSTILE / name
    shot = tmp_path / "shot.png"
    code = main(["edit", str(path), "--screenshot", str(shot)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert re.search(rf"{re.escape(str(path))}:{FORMAT_LEVEL[name]}: \S", err), err
    assert "Traceback" not in err
    assert not shot.exists()


@pytest.mark.parametrize("name", MAP_LEVEL)
def test_editor_opens_a_map_with_geometry_errors(
    name: str, tmp_path: Path, qapp: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIREGROUND_RECOVERY_DIR", str(tmp_path / "recovery"))
    shot = tmp_path / "shot.png"
    assert main(["edit", str(HOSTILE / name), "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 0


@pytest.mark.parametrize("name", sorted(FIXABLE))
def test_editor_opens_a_file_with_references_it_can_fix(
    name: str, tmp_path: Path, qapp: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fireground.editor.app import open_window
    from fireground.engine.games.blitz.checks.run import check

    monkeypatch.setenv("FIREGROUND_RECOVERY_DIR", str(tmp_path / "recovery"))
    shot = tmp_path / "shot.png"
    assert main(["edit", str(HOSTILE / name), "--screenshot", str(shot)]) == 0
    win = open_window(str(HOSTILE / name), recovery_session=False)
    codes = {f.code for f in check(win.doc.scenario) if f.severity == "error"}
    assert FIXABLE[name] <= codes
    win.deleteLater()
