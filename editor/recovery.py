"""Crash recovery: autosaves in the app-data folder, one lock file per editor session.

Each running editor holds ``<session>.lock`` and writes ``<session>.fg.yaml`` (the
scenario) with ``<session>.json`` (which file it was). A lock that can be taken by a new
session belongs to one that died, so its autosave is offered for restoring.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QStandardPaths

from fireground.engine.board.model import Scenario


def recovery_dir() -> Path:
    env = os.environ.get("FIREGROUND_RECOVERY_DIR")
    if env:
        d = Path(env)
    else:
        base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation) or str(
            Path.home() / ".local" / "share"
        )
        d = Path(base) / "fireground" / "recovery"
    d.mkdir(parents=True, exist_ok=True)
    return d


@dataclass(frozen=True)
class Crashed:
    """An autosave left by a session that did not close cleanly."""

    session: str
    scenario_file: Path
    original: str | None
    saved_at: float


class RecoverySession:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or recovery_dir()
        self.id = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.lock = QLockFile(str(self.folder / f"{self.id}.lock"))
        self.lock.setStaleLockTime(0)
        self.lock.tryLock(100)

    @property
    def scenario_file(self) -> Path:
        return self.folder / f"{self.id}.fg.yaml"

    @property
    def meta_file(self) -> Path:
        return self.folder / f"{self.id}.json"

    def write(self, scenario: Scenario, original: str | None) -> Path:
        """Write the autosave (atomically, so a crash mid-write keeps the last one)."""
        from fireground.engine.scenario.emit import dump_scenario
        from fireground.engine.scenario.io import atomic_write

        atomic_write(self.scenario_file, dump_scenario(scenario).encode("utf-8"), backup=False)
        meta = {"original": original, "saved_at": time.time(), "pid": os.getpid()}
        atomic_write(self.meta_file, json.dumps(meta).encode("utf-8"), backup=False)
        return self.scenario_file

    def discard(self) -> None:
        """Forget the autosave (after a save, or a clean close)."""
        for p in (self.scenario_file, self.meta_file):
            p.unlink(missing_ok=True)

    def close(self) -> None:
        self.discard()
        self.lock.unlock()


def find_crashed(folder: Path | None = None, own: str | None = None) -> list[Crashed]:
    """Autosaves whose session lock can be taken: those sessions are gone."""
    folder = folder or recovery_dir()
    out: list[Crashed] = []
    for meta in sorted(folder.glob("*.json")):
        session = meta.stem
        if session == own:
            continue
        lock = QLockFile(str(folder / f"{session}.lock"))
        lock.setStaleLockTime(0)
        if not lock.tryLock(0):
            continue  # a live editor holds it
        lock.unlock()
        data = folder / f"{session}.fg.yaml"
        if not data.exists():
            continue
        try:
            info = json.loads(meta.read_text("utf-8"))
        except (OSError, ValueError):
            info = {}
        out.append(Crashed(session, data, info.get("original"), float(info.get("saved_at", 0))))
    return out


def forget(c: Crashed) -> None:
    folder = c.scenario_file.parent
    for suffix in (".fg.yaml", ".json", ".lock"):
        (folder / f"{c.session}{suffix}").unlink(missing_ok=True)
