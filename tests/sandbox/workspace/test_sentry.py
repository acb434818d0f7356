"""The sentry (sandbox/workspace/sentry.py): quiet only while the tree is as the last whole scan saw it.

Each test scans twice first (a folder's first watch leaves the sentry dirty until a scan made with it
watched), then changes the tree the way a human or another program could between two commands."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.workspace.repo import Scanned, scan
from sandbox.workspace.sentry import Sentry


def _whole_scan(sentry: Sentry, root: Path) -> None:
    sentry.drain()
    tree = Scanned()
    scan(root, tree)
    sentry.covered(tree.folders, tree.linked)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for rel in ("a.py", "src/b.py", "src/deep/c.py", "empty/.keep"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / "bare").mkdir()  # a folder with nothing in it is watched too
    (root / ".git").mkdir()
    return root


def _settled(root: Path) -> Sentry:
    sentry = Sentry()
    _whole_scan(sentry, root)
    assert not sentry.quiet()  # every folder was new to it
    _whole_scan(sentry, root)
    assert sentry.quiet()
    return sentry


def _append(path: Path) -> None:
    with path.open("a") as f:
        f.write("more")


CHANGES: dict[str, Callable[[Path], None]] = {
    "rewrite, same size": lambda r: (r / "src/deep/c.py").write_text("src/deep/X.py"),
    "append": lambda r: _append(r / "a.py"),
    "create in an empty folder": lambda r: (r / "bare/new.txt").write_text("new"),
    "delete": lambda r: (r / "src/b.py").unlink(),
    "chmod": lambda r: os.chmod(r / "a.py", 0o755),
    "time alone": lambda r: os.utime(r / "src/b.py", ns=(0, 0)),
    "rename": lambda r: os.rename(r / "src/b.py", r / "src/deep/b.py"),
    "moved in from outside": lambda r: os.rename(r.parent / "outside.txt", r / "src/in.txt"),
    "new folder": lambda r: (r / "src/new").mkdir(),
    "folder removed": lambda r: (r / "bare").rmdir(),
    "symlink": lambda r: (r / "link").symlink_to("a.py"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_any_change_between_scans_makes_it_speak(tree: Path, change: str) -> None:
    (tree.parent / "outside.txt").write_text("from elsewhere")
    sentry = _settled(tree)
    CHANGES[change](tree)
    assert not sentry.quiet()
    assert not sentry.quiet()  # it stays so until a whole scan
    _whole_scan(sentry, tree)
    _whole_scan(sentry, tree)
    assert sentry.quiet()
    sentry.close()


def test_reads_and_noise_keep_it_quiet(tree: Path) -> None:
    sentry = _settled(tree)
    (tree / "src/b.py").read_text()
    (tree / ".git/index").write_text("git's own")  # noise: the scan never goes there
    assert sentry.quiet()
    sentry.close()


def test_a_change_during_the_scan_is_seen_by_the_next_check(tree: Path) -> None:
    sentry = _settled(tree)
    sentry.drain()
    t = Scanned()
    scan(tree, t)
    (tree / "a.py").write_text("after the scan read it")
    sentry.covered(t.folders, t.linked)
    assert not sentry.quiet()
    sentry.close()


def test_a_folder_made_again_under_its_name_is_watched_anew(tree: Path) -> None:
    sentry = _settled(tree)
    (tree / "bare").rmdir()
    (tree / "bare").mkdir()
    _whole_scan(sentry, tree)  # the new inode's watch is new: this scan may have missed a write in it
    assert not sentry.quiet()
    _whole_scan(sentry, tree)
    (tree / "bare/x").write_text("x")
    assert not sentry.quiet()
    sentry.close()


def test_a_hard_link_in_the_tree_keeps_it_speaking(tree: Path) -> None:
    # Written through its other name (outside any watched folder), the file would change unseen.
    os.link(tree / "a.py", tree.parent / "other-name")
    sentry = Sentry()
    for _ in range(3):
        _whole_scan(sentry, tree)
        assert not sentry.quiet()
    sentry.close()


def test_closed_it_is_never_quiet(tree: Path) -> None:
    sentry = _settled(tree)
    sentry.close()
    _whole_scan(sentry, tree)
    assert not sentry.quiet()


def test_sentries_share_one_descriptor_and_hear_only_their_own_tree(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    for root in (first, second):
        (root / "src").mkdir(parents=True)
        (root / "src" / "a.py").write_text("a")
    one, two = _settled(first), _settled(second)
    (second / "src" / "a.py").write_text("changed")
    assert one.quiet()  # it read the shared queue and handed the event on
    assert not two.quiet()
    one.close()
    (second / "src" / "b.py").write_text("more")
    _whole_scan(two, second)
    _whole_scan(two, second)
    assert two.quiet()
    two.close()
