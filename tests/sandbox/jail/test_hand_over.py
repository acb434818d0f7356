"""The hand-over to the jail's uid (sandbox/jail/jailuser.py) with its folders watched
(sandbox.workspace.sentry.Folders): a known folder with no event since it was looked into costs nothing, and
every change that needs a hand-over is an event."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sandbox.jail.jailuser import SETTLED_NS, HandOver
from sandbox.workspace.sentry import Folders

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="handing entries to another uid needs root")
UID = 1_234_567


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for i in range(5):
        (root / f"pkg{i}" / "sub").mkdir(parents=True)
        (root / f"pkg{i}" / "sub" / "f.py").write_text("x = 1\n")
    return root


def _settled() -> None:
    time.sleep(SETTLED_NS / 1e9 + 0.02)  # folders changed within the clock's tick are looked into again


def _counting_lstat(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = os.lstat

    def lstat(path: str, *args: object, **kwargs: object) -> os.stat_result:
        calls.append(str(path))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "lstat", lstat)
    return calls


def _owners(root: Path) -> set[int]:
    return {p.lstat().st_uid for p in [root, *root.rglob("*")]}


def test_a_quiet_tree_is_not_looked_at_and_a_changed_one_is(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    handing = HandOver((tree,), UID)
    try:
        assert handing.run() > 0
        assert _owners(tree) == {UID}
        _settled()
        handing.run()  # each folder now known
        calls = _counting_lstat(monkeypatch)
        assert handing.run() == 0
        assert calls == []  # nothing changed: no folder stat-ed, none opened
        (tree / "pkg3" / "sub" / "new.py").write_text("y = 2\n")  # as root, deep in a known folder
        assert handing.run() == 1
        assert (tree / "pkg3" / "sub" / "new.py").lstat().st_uid == UID
        assert calls == []  # the folder with an event looked into again by descriptor, no other one looked at
    finally:
        handing.close()


def test_an_entry_given_to_another_owner_in_place_is_handed_back(tree: Path) -> None:
    """Its folder's ctime does not change (the old rule's blind spot); its watch has an event."""
    handing = HandOver((tree,), UID)
    try:
        handing.run()
        _settled()
        handing.run()
        target = tree / "pkg1" / "sub" / "f.py"
        before = (tree / "pkg1" / "sub").lstat().st_ctime_ns
        os.chown(target, 0, 0)
        assert (tree / "pkg1" / "sub").lstat().st_ctime_ns == before
        assert handing.run() == 1
        assert target.lstat().st_uid == UID
    finally:
        handing.close()


def test_a_folder_locked_and_a_folder_swapped_are_looked_into(tree: Path) -> None:
    handing = HandOver((tree,), UID)
    try:
        handing.run()
        _settled()
        handing.run()
        os.chmod(tree / "pkg2", 0)
        moved = tree.parent / "elsewhere"
        (tree / "pkg4").rename(moved)
        (tree / "pkg4").mkdir()
        (tree / "pkg4" / "root.txt").write_text("root's\n")
        assert handing.run() == 3  # pkg2's mode, the new pkg4 and its file
        assert (tree / "pkg2").lstat().st_mode & 0o700 == 0o700
        assert _owners(tree) == {UID}
    finally:
        handing.close()


def test_without_events_every_known_folder_is_stat_ed(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An overflow, a failed read or no inotify: ``changed`` is None, and the walk is the ctime rule's."""
    handing = HandOver((tree,), UID)
    try:
        handing.run()
        _settled()
        handing.run()
        monkeypatch.setattr(Folders, "changed", lambda self: None)
        calls = _counting_lstat(monkeypatch)
        assert handing.run() == 0
        assert len(calls) == 1 + 5 * 2  # the root, each pkg and its sub
    finally:
        handing.close()


def test_folders_report_each_kind_of_change_once(tmp_path: Path) -> None:
    watch = Folders()
    try:
        assert watch.changed() is None  # nothing known yet
        fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            watch.watch(str(tmp_path), fd)
        finally:
            os.close(fd)
        assert watch.changed() == set()
        for change in (
            lambda: (tmp_path / "a").write_text("a"),
            lambda: os.chmod(tmp_path / "a", 0o600),
            lambda: (tmp_path / "a").rename(tmp_path / "b"),
            lambda: os.utime(tmp_path),
        ):
            change()
            assert watch.changed() == {str(tmp_path)}
            assert watch.changed() == set()
    finally:
        watch.close()
    assert watch.changed() is None


def test_a_hand_over_dropped_while_the_inotify_lock_is_held_does_not_hang(tree: Path) -> None:
    """Its finalizer runs whenever the garbage collector does, in whatever thread holds the (not reentrant) lock of
    the process's inotify descriptor: it closes its watches at the next pump instead (a test run hung there)."""
    import gc

    from sandbox.workspace import sentry

    handing = HandOver((tree,), UID)
    handing.run()
    watch = handing._watch
    inotify = sentry._inotify()
    with inotify.lock:
        del handing
        gc.collect()
        assert watch in inotify.closing
    assert watch.changed() is None  # closed by the pump: no watch left, never quiet
    assert watch not in inotify.closing
