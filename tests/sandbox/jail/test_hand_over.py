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
from tests.sandbox._support import counting_lstat

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


def _owners(root: Path) -> set[int]:
    return {p.lstat().st_uid for p in [root, *root.rglob("*")]}


def test_a_quiet_tree_is_not_looked_at_and_a_changed_one_is(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    handing = HandOver((tree,), UID)
    try:
        assert handing.run() > 0
        assert _owners(tree) == {UID}
        _settled()
        handing.run()  # each folder now known
        calls = counting_lstat(monkeypatch)
        assert handing.run() == 0
        assert calls == [str(tree)]  # nothing changed: only the root's identity looked at, nothing opened
        (tree / "pkg3" / "sub" / "new.py").write_text("y = 2\n")  # as root, deep in a known folder
        assert handing.run() == 1
        assert (tree / "pkg3" / "sub" / "new.py").lstat().st_uid == UID
        assert calls == [str(tree)] * 2  # the root's identity; the folder with an event looked into by descriptor
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
        calls = counting_lstat(monkeypatch)
        assert handing.run() == 0
        assert len(calls) == 1 + 1 + 5 * 2  # the root's identity, the root, each pkg and its sub
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


def _known(handing: HandOver) -> None:
    handing.run()
    _settled()
    handing.run()


def test_a_folder_under_a_replaced_parent_is_looked_into(tree: Path) -> None:
    """Red team 7, 02: ``mv P P.old && mkdir -p P/x``: the new ``P/x`` has no watch and the old one no event (its
    parent moved, not it); skipped by its path, its later ``chmod 000`` and the engine's files in it stayed."""
    handing = HandOver((tree,), UID)
    try:
        _known(handing)
        (tree / "pkg1").rename(tree / "pkg1.old")
        (tree / "pkg1" / "sub").mkdir(parents=True)
        for made in (tree / "pkg1", tree / "pkg1" / "sub"):
            os.chown(made, UID, UID)  # as the jail's uid would have made them
        _settled()
        handing.run()
        os.chmod(tree / "pkg1" / "sub", 0)
        (tree / "pkg1" / "sub" / "root.txt").write_text("root's\n")
        handing.run()
        assert (tree / "pkg1" / "sub").lstat().st_mode & 0o700 == 0o700
        assert (tree / "pkg1" / "sub" / "root.txt").lstat().st_uid == UID
    finally:
        handing.close()


def test_folders_made_by_root_under_a_swapped_tree_are_handed_over(tree: Path) -> None:
    """Red team 7, 03: a tree moved away and made again, then root's rollback makes folders in it again (a folder
    holding only folders has no event of its own): each is the jail's uid's after the next run."""
    handing = HandOver((tree,), UID)
    try:
        _known(handing)
        (tree / "pkg2").rename(tree / "pkg2.old")
        (tree / "pkg2").mkdir()
        os.chown(tree / "pkg2", UID, UID)
        (tree / "pkg2" / "sub").mkdir()  # root's, as a rollback makes it
        (tree / "pkg2" / "sub" / "f.py").write_text("x = 1\n")
        handing.run()
        assert _owners(tree) == {UID}
    finally:
        handing.close()


def test_a_folder_looked_into_under_two_paths_is_watched_under_both(tree: Path) -> None:
    """Red team 7, 01: a folder moved away and back while a run looked into it under its other path: its watch
    named only the last path, and its later events went to a path that no longer held it."""
    handing = HandOver((tree,), UID)
    try:
        _known(handing)
        moved = tree / "pkg0" / "away"
        (tree / "pkg3").rename(moved)  # away while a run looks at it (there), back before the next one
        handing.run()
        moved.rename(tree / "pkg3")
        _settled()
        handing.run()
        os.chmod(tree / "pkg3", 0)
        (tree / "pkg3" / "root.txt").write_text("root's\n")
        handing.run()
        assert (tree / "pkg3").lstat().st_mode & 0o700 == 0o700
        assert (tree / "pkg3" / "root.txt").lstat().st_uid == UID
    finally:
        handing.close()


def test_the_paths_of_folders_gone_are_dropped_now_and_then(tree: Path) -> None:
    handing = HandOver((tree,), UID)
    try:
        for i in range(300):
            (tree / "pkg0" / f"tmp{i}").mkdir()
        _known(handing)
        assert len(handing._watch) > 300
        for i in range(300):
            (tree / "pkg0" / f"tmp{i}").rmdir()
        handing.run()
        assert len(handing._watch) <= 2 * (1 + 5 * 2) + 64  # the root, the packages and their subs, and a margin
    finally:
        handing.close()


def test_a_pump_reads_what_was_queued_when_it_began(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A live process changing watched files without pause kept the pump reading (red team 7: 10 s once, with the
    shared lock held): it reads what was queued when it began, and at most one read more."""
    import subprocess
    import sys

    from sandbox.workspace import sentry

    watch = Folders()
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    watch.watch(str(tmp_path), fd)
    os.close(fd)
    loop = f"import os\nwhile True:\n    os.utime({str(tmp_path / 'a')!r}); os.utime({str(tmp_path / 'b')!r})\n"
    (tmp_path / "a").write_text("")
    (tmp_path / "b").write_text("")
    flood = [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(2)]
    try:
        time.sleep(0.5)
        queued: list[int | None] = []
        reads: list[int] = []
        real_queued, real_read = sentry._queued, os.read

        def counted_queued(fd: int) -> int | None:
            queued.append(real_queued(fd))
            return queued[-1]

        def counted_read(fd: int, n: int) -> bytes:
            data = real_read(fd, n)
            reads.append(len(data))
            return data

        monkeypatch.setattr(sentry, "_queued", counted_queued)
        monkeypatch.setattr(os, "read", counted_read)
        for _ in range(5):
            queued.clear()
            reads.clear()
            watch.changed()  # None when the queue overflowed: all the same, bounded
            assert queued and queued[0] is not None
            assert sum(reads) < queued[0] + (1 << 16) + 1
    finally:
        for proc in flood:
            proc.kill()
            proc.wait()
        watch.close()
