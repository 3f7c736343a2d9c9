"""Crash-safe and disk-full-safe saves (docs/reliability.md, "Saves").

* ``fireground convert FILE`` on a 3,000-area city is SIGKILLed at 50 seeded random
  moments (forked from a fork server, plus 8 fresh ``python -m fireground convert``
  processes); an editor saving in a loop (a 500-area city) is SIGKILLed 50 times. After
  every kill the file (and FILE.bak) is byte-identical to the old or a new version and loads.
  An editor autosaving in a loop is SIGKILLed 15 times: its recovery file is always whole.
* A save is cut by SIGKILL right before and right after each of its system calls (forked
  children): the file, and FILE.bak, are never torn.
* The order of the system calls: data written, file fsynced, renamed, folder fsynced.
* FILE.bak holds the previous version; the file keeps its permission bits.
* A full disk (ENOSPC from ``os.write``): save_scenario raises, ``fireground convert``
  exits 2 with a message and no traceback, the editor shows an error; in each case the
  original is intact and no temporary file is left behind.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import random
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fireground.cli import main
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.io import load_scenario, loads_scenario, save_scenario
from fireground.engine.scenario.synthetic import synthetic_city

pytestmark = pytest.mark.slow

N_AREAS = 3000
EDITOR_AREAS = 500
KILLS_CONVERT = 50
KILLS_EDITOR = 50
KILLS_REAL = 8
KILLS_AUTOSAVE = 15


@pytest.fixture(scope="module")
def city_text() -> str:
    return dump_scenario(synthetic_city(N_AREAS, seed=5))


def _env() -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONDONTWRITEBYTECODE": "1"}


def _assert_whole(path: Path, versions: set[bytes], what: str) -> bytes:
    data = path.read_bytes()
    assert data in versions, f"{what}: {path.name} is torn ({len(data)} bytes)"
    loads_scenario(data, str(path))
    return data


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- SIGKILL during `fireground convert` and editor saves ------------------------------

#: A fork server: imports fireground (and Qt) once, then for each request forks a child that
#: runs ``fireground convert FILE`` (``fireground.cli.main``, what ``python -m fireground``
#: calls) or an editor window saving in a loop, and SIGKILLs it after DELAY seconds (for the
#: editor: DELAY after its window is up). Forking skips the interpreter start-up, so 50 kills
#: of each fit in the time budget. Qt is only imported here; each child makes its own app.
SERVER = textwrap.dedent(
    """
    import os, select, signal, sys, time
    from fireground.cli import main
    import fireground.commands, fireground.engine.scenario.io
    from PySide6.QtWidgets import QApplication
    from fireground.editor.commands import ChangeSettingsCommand
    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow
    from fireground.engine.scenario.io import load_scenario

    def editor(path, ready):
        app = QApplication([])
        win = MainWindow(Document(load_scenario(path), path), recovery_session=False)
        os.write(ready, b"r")
        i = 0
        while True:  # save, edit, save, ... until killed
            win.doc.push(ChangeSettingsCommand(win.doc, merge=False, name=f"version {i % 2}"))
            assert win.save_to(path)
            i += 1

    def autosaver(path, ready):
        app = QApplication([])
        win = MainWindow(Document(load_scenario(path), path))  # with a recovery session
        i = 0
        while True:  # edit, autosave, ... until killed
            win.doc.push(ChangeSettingsCommand(win.doc, merge=False, name=f"version {i % 2}"))
            assert win.autosave() is not None
            if i == 0:
                os.write(ready, b"r")
            i += 1

    for line in sys.stdin:
        what, path, delay = line.split()
        r, w = os.pipe()
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # our stdout is the answer channel
            try:
                if what == "convert":
                    code = main(["convert", path])
                else:
                    code = (editor if what == "editor" else autosaver)(path, w)
            finally:
                sys.stdout.flush()
                os._exit(code if isinstance(code, int) else 3)
        os.close(w)
        if what != "convert":
            select.select([r], [], [], 60)
        exited = os.pidfd_open(pid)
        select.select([exited], [], [], float(delay))  # the delay, or until it ends
        os.kill(pid, signal.SIGKILL)  # harmless when it has already exited
        os.close(exited)
        _, status = os.waitpid(pid, 0)
        os.close(r)
        state = "killed" if os.WIFSIGNALED(status) else f"exited {os.WEXITSTATUS(status)}"
        print(state, time.perf_counter() - t0, flush=True)
    """
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[subprocess.Popen[str]]:
    pytest.importorskip("PySide6")
    env = {**_env(), "FIREGROUND_RECOVERY_DIR": str(tmp_path_factory.mktemp("recovery"))}
    # stderr to a file: Qt's chatter from 50 children must never fill a pipe nobody reads
    err = open(tmp_path_factory.mktemp("server") / "stderr.txt", "w+")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=err,
        env=env,
        text=True,
    )
    proc.recovery_dir = Path(env["FIREGROUND_RECOVERY_DIR"])  # type: ignore[attr-defined]
    proc.errfile = err  # type: ignore[attr-defined]
    yield proc
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    err.close()


def _run(server: subprocess.Popen[str], what: str, path: Path, delay: float) -> tuple[str, float]:
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(f"{what} {path} {delay:.4f}\n")
    server.stdin.flush()
    answer = server.stdout.readline().split()
    if not answer:
        err = server.errfile  # type: ignore[attr-defined]
        err.seek(0)
        pytest.fail(f"the fork server died:\n{err.read()[-3000:]}")
    return " ".join(answer[:-1]), float(answer[-1])


def test_convert_killed_at_random_moments_leaves_old_or_new(
    tmp_path: Path, city_text: str, server: subprocess.Popen[str]
) -> None:
    path = tmp_path / "city.fg.yaml"
    bak = tmp_path / "city.fg.yaml.bak"
    # The old file differs from what convert writes (a comment and blank lines convert drops).
    old = ("# drawn by hand\n\n" + city_text).encode("utf-8")
    path.write_bytes(old)
    state, full = _run(server, "convert", path, 600)  # one whole run, to time it
    assert state == "exited 0"
    new = path.read_bytes()
    assert new != old and new == city_text.encode("utf-8")
    versions = {old, new}
    rng = random.Random(20240907)
    seen = {"old": 0, "new": 0}
    for i in range(KILLS_CONVERT):
        path.write_bytes(old)
        bak.unlink(missing_ok=True)
        _run(server, "convert", path, rng.uniform(0.4, 1.1) * full)
        data = _assert_whole(path, versions, f"kill {i}")
        seen["old" if data == old else "new"] += 1
        if bak.exists():
            assert bak.read_bytes() == old, f"kill {i}: torn or wrong .bak"
    print(f"convert kills: {seen}; stray temp files: {len(_leftovers(tmp_path))}")


def test_real_convert_process_killed_leaves_old_or_new(tmp_path: Path, city_text: str) -> None:
    """The same with a fresh ``python -m fireground convert`` per kill (fewer: start-up)."""
    path = tmp_path / "city.fg.yaml"
    old = ("# drawn by hand\n\n" + city_text).encode("utf-8")
    path.write_bytes(old)
    cmd = [sys.executable, "-m", "fireground", "convert", str(path)]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=_env(), timeout=120)
    full = time.perf_counter() - t0
    versions = {old, path.read_bytes()}
    rng = random.Random(7)
    for i in range(KILLS_REAL):
        path.write_bytes(old)
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=_env())  # fmt: skip
        try:
            child.wait(timeout=rng.uniform(0.5, 1.1) * full)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        _assert_whole(path, versions, f"kill {i}")


def test_editor_killed_while_saving_leaves_old_or_new(
    tmp_path: Path, server: subprocess.Popen[str]
) -> None:
    path = tmp_path / "city.fg.yaml"
    bak = path.with_name(path.name + ".bak")
    base = synthetic_city(EDITOR_AREAS, seed=8)
    old = dump_scenario(base).encode("utf-8")
    versions = {old} | {
        dump_scenario(dataclasses.replace(base, name=f"version {k}")).encode("utf-8")
        for k in (0, 1)
    }
    rng = random.Random(1940)
    states = []
    for i in range(KILLS_EDITOR):
        path.write_bytes(old)
        bak.unlink(missing_ok=True)
        state, _ = _run(server, "editor", path, rng.uniform(0.0, 0.15))
        states.append(state)
        _assert_whole(path, versions, f"editor kill {i}")
        if bak.exists():
            _assert_whole(bak, versions, f"editor kill {i} (.bak)")
    assert states == ["killed"] * KILLS_EDITOR  # killed while saving, never finished


def test_editor_killed_while_autosaving_leaves_a_whole_recovery_file(
    tmp_path: Path, server: subprocess.Popen[str]
) -> None:
    """An autosave is written like a save: a crash mid-autosave keeps a whole one."""
    from fireground.editor import recovery

    folder: Path = server.recovery_dir  # type: ignore[attr-defined]
    path = tmp_path / "city.fg.yaml"
    save_scenario(synthetic_city(EDITOR_AREAS, seed=9), path)
    rng = random.Random(1666)
    for i in range(KILLS_AUTOSAVE):
        state, _ = _run(server, "autosave", path, rng.uniform(0.0, 0.15))
        assert state == "killed"
        (crashed,) = recovery.find_crashed(folder)
        assert crashed.original == str(path)
        restored = load_scenario(crashed.scenario_file)
        assert restored.name in ("version 0", "version 1"), f"kill {i}"
        recovery.forget(crashed)
    assert list(folder.glob("*.fg.yaml")) == []


# -- SIGKILL before and after every system call of a save --------------------------------

STEPS = ("write", "fchmod", "fsync", "close", "link", "replace")


def _save_killed_at(path: Path, scenario: object, step: int, after: bool) -> None:
    """In a forked child: run save_scenario and SIGKILL ourselves at system call ``step``."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            count = [0]

            def wrap(name: str, real: object) -> object:
                def call(*a: object, **k: object) -> object:
                    count[0] += 1
                    if count[0] == step and not after:
                        os.kill(os.getpid(), signal.SIGKILL)
                    result = real(*a, **k)  # type: ignore[operator]
                    if count[0] == step and after:
                        os.kill(os.getpid(), signal.SIGKILL)
                    return result

                return call

            for name in STEPS:
                setattr(os, name, wrap(name, getattr(os, name)))
            save_scenario(scenario, path)  # type: ignore[arg-type]
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) or os.WEXITSTATUS(status) == 0


def test_kill_at_every_step_of_a_save_leaves_old_or_new(tmp_path: Path) -> None:
    old_s = synthetic_city(200, seed=1)
    new_s = dataclasses.replace(old_s, name="the new version", turns=33)
    path = tmp_path / "map.fg.yaml"
    old, new = (dump_scenario(x).encode("utf-8") for x in (old_s, new_s))
    outcomes = []
    step = 1
    while True:
        for after in (False, True):
            path.write_bytes(old)
            (tmp_path / "map.fg.yaml.bak").unlink(missing_ok=True)
            _save_killed_at(path, new_s, step, after)
            data = _assert_whole(path, {old, new}, f"killed {'after' if after else 'at'} {step}")
            bak = tmp_path / "map.fg.yaml.bak"
            if bak.exists():
                assert bak.read_bytes() == old
            outcomes.append(data == new)
        if outcomes[-1] and outcomes[-2]:  # killed before and after the last call: done
            break
        step += 1
        assert step < 200, "save_scenario makes far more system calls than expected"
    # The kills covered the whole save: early ones kept the old file, late ones the new.
    assert not outcomes[0] and outcomes[-1], outcomes


def test_save_syncs_file_then_renames_then_syncs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "map.fg.yaml"
    s = synthetic_city(50, seed=2)
    save_scenario(s, path)
    events: list[str] = []
    real_fsync, real_replace, real_write = os.fsync, os.replace, os.write

    def fsync(fd: int) -> None:
        events.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        events.append(f"replace {Path(dst).name}")
        real_replace(src, dst)

    def write(fd: int, data: bytes) -> int:
        if not events or events[-1] != "write":
            events.append("write")
        return real_write(fd, data)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "write", write)
    save_scenario(dataclasses.replace(s, name="v2"), path)
    assert events == [
        "write",
        "fsync file",
        "replace map.fg.yaml.bak",
        "replace map.fg.yaml",
        "fsync folder",
    ], events


def test_backup_and_permissions_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "map.fg.yaml"
    s1 = synthetic_city(30, seed=3)
    save_scenario(s1, path)
    path.chmod(0o640)
    first = path.read_bytes()
    s2 = dataclasses.replace(s1, name="second")
    save_scenario(s2, path)
    assert (tmp_path / "map.fg.yaml.bak").read_bytes() == first
    assert load_scenario(path) == s2
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert _leftovers(tmp_path) == []


# -- a full disk -------------------------------------------------------------------------


def _disk_full_after(monkeypatch: pytest.MonkeyPatch, nbytes: int) -> None:
    """os.write accepts ``nbytes`` bytes in all, then fails with ENOSPC."""
    real = os.write
    left = [nbytes]

    def write(fd: int, data: bytes) -> int:
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real(fd, bytes(data[: left[0]]))
        left[0] -= n
        return n

    monkeypatch.setattr(os, "write", write)


def test_disk_full_keeps_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "map.fg.yaml"
    s = synthetic_city(300, seed=4)
    save_scenario(s, path)
    save_scenario(s, path)  # now with a .bak too
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    _disk_full_after(monkeypatch, 4096)
    with pytest.raises(OSError) as e:
        save_scenario(dataclasses.replace(s, name="never written"), path)
    assert e.value.errno == errno.ENOSPC
    assert str(path) in str(e.value) or e.value.filename == str(path)
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert after == before  # original and .bak untouched, no temp file


def test_disk_full_during_convert_exits_2_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "map.fg.yaml"
    old = ("# old layout\n" + dump_scenario(synthetic_city(300, seed=4))).encode("utf-8")
    path.write_bytes(old)
    _disk_full_after(monkeypatch, 1000)
    monkeypatch.delenv("FIREGROUND_DEBUG", raising=False)
    code = main(["convert", str(path)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "No space left on device" in err and str(path) in err, err
    assert "Traceback" not in err
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.fg.yaml"]


def test_disk_full_in_the_editor_shows_an_error(
    qtbot: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QMessageBox

    from fireground.editor.commands import ChangeSettingsCommand
    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow

    monkeypatch.setenv("FIREGROUND_RECOVERY_DIR", str(tmp_path / "recovery"))
    path = tmp_path / "map.fg.yaml"
    save_scenario(synthetic_city(100, seed=6), path)
    old = path.read_bytes()
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _p, title, text, *a: shown.append(text))
    win = MainWindow(Document(load_scenario(path), path), recovery_session=False)
    qtbot.addWidget(win)  # type: ignore[attr-defined]
    win.doc.push(ChangeSettingsCommand(win.doc, name="unsaved edit"))
    _disk_full_after(monkeypatch, 0)
    assert win.save_to(path) is False
    assert shown and "No space left on device" in shown[0], shown
    assert win.doc.modified  # the edit is not marked saved
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["map.fg.yaml"]
    win.doc.mark_saved()
    win.close()
