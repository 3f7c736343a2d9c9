"""Crash recovery: autosaves in the app-data folder, one lock file per editor session.

Each running editor holds ``<session>.lock`` and writes ``<session>.fg.yaml`` (the
scenario) with ``<session>.json`` (which file it was). A lock that can be taken by a new
session belongs to one that died, so its autosave is offered for restoring.

The window writes the copy a moment after each change (:meth:`RecoverySession.write_soon`,
on a worker thread: a big map takes a third of a second to write), so a crash loses at
most the last few seconds of work.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
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
        #: The newest (scenario, original) waiting for the worker; a newer one replaces it.
        self._pending: tuple[Scenario, str | None] | None = None
        #: Held while writing or discarding, so a late write cannot undo a discard.
        self._mutex = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        #: The last background write's error (None when it worked).
        self.error: OSError | None = None

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

    def write_soon(self, scenario: Scenario, original: str | None) -> Future[None]:
        """Write the autosave on the worker thread. Scenarios are immutable, so the worker
        reads a consistent one; when edits come faster than writes only the newest is
        written."""
        with self._mutex:
            self._pending = (scenario, original)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="fireground-recovery")
        return self._pool.submit(self._write_pending)

    def _write_pending(self) -> None:  # on the worker thread
        with self._mutex:
            job, self._pending = self._pending, None
            if job is None:
                return
            try:
                self.write(*job)
                self.error = None
            except OSError as exc:
                self.error = exc

    def discard(self) -> None:
        """Forget the autosave (after a save, or a clean close)."""
        with self._mutex:
            self._pending = None
            for p in (self.scenario_file, self.meta_file):
                p.unlink(missing_ok=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self.discard()
        self.lock.unlock()
        Path(self.lock.fileName()).unlink(missing_ok=True)


def find_crashed(folder: Path | None = None, own: str | None = None) -> list[Crashed]:
    """Autosaves whose session lock can be taken: those sessions are gone."""
    folder = folder or recovery_dir()
    _drop_stale_locks(folder, own)
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


def _drop_stale_locks(folder: Path, own: str | None) -> None:
    """Delete the lock files of sessions that died before they autosaved anything (a lock
    that can be taken has no live editor behind it); those with an autosave stay until
    the user restores or discards it."""
    for lock_file in folder.glob("*.lock"):
        session = lock_file.name.removesuffix(".lock")
        if session == own or (folder / f"{session}.json").exists():
            continue
        lock = QLockFile(str(lock_file))
        lock.setStaleLockTime(0)
        if lock.tryLock(0):
            lock.unlock()
            lock_file.unlink(missing_ok=True)
