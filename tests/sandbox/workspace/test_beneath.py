"""The engine's file operations under an agent-writable root never follow a symlink (:mod:`sandbox.workspace.beneath`;
red team 5, finding 01): a folder that is, or becomes while the engine works, a link to a folder outside makes the
operation fail, never read, write, remove or hand over a file out there. Each race test runs with ``openat2`` and
with the per-component walk it falls back to."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.jail.jailuser import HandOver
from sandbox.workspace import beneath
from sandbox.workspace.entries import put_entry, read_beneath

RACE_S = 1.5
_LIBC = ctypes.CDLL(None, use_errno=True)
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


@pytest.fixture(params=["openat2", "walk"])
def resolution(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "walk":
        monkeypatch.setattr(beneath._openat2, "usable", False)
    return str(request.param)


def _exchange(a: Path, b: Path) -> None:
    if _LIBC.renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


@contextlib.contextmanager
def swapping(folder: Path, outside: Path) -> Iterator[None]:
    """A thread exchanging ``folder`` with a symlink to ``outside`` as fast as it can (what a live agent does)."""
    link = folder.with_name(folder.name + ".link")
    link.symlink_to(outside)
    try:
        _exchange(folder, link)
        _exchange(folder, link)
    except OSError as error:
        pytest.skip(f"renameat2(RENAME_EXCHANGE): {error}")
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                _exchange(folder, link)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f").write_text("inside\n")
    outside.mkdir()
    (outside / "f").write_text("HOST SECRET\n")
    return root, outside


def test_a_link_on_the_way_fails_every_operation(tree: tuple[Path, Path], resolution: str) -> None:
    root, outside = tree
    os.rename(root / "d", root / "real")
    (root / "d").symlink_to(outside)
    assert read_beneath(root, "d/f") is None
    with pytest.raises(OSError) as caught:
        put_entry(root / "d" / "new", b"pwned", root=root)
    assert caught.value.errno == errno.ELOOP  # "a symlink on the way", from openat2 and from the walk alike
    for act in (
        lambda: beneath.chmod(root, "d/f", 0o777),
        lambda: beneath.utime(root, "d/f", (0, 0)),
        lambda: beneath.lstat(root, "d/f"),
    ):
        with pytest.raises(OSError):
            act()
    beneath.remove(root, "d/f")
    put_entry(root / "d" / "f", None, root=root)
    assert sorted(p.name for p in outside.iterdir()) == ["f"]
    assert (outside / "f").read_text() == "HOST SECRET\n" and (outside / "f").stat().st_mode & 0o777 != 0o777
    put_entry(root / "d", b"a file now", root=root)  # the link itself is replaced, not followed
    assert (root / "d").read_bytes() == b"a file now" and (outside / "f").exists()


def test_plain_paths_work(tree: tuple[Path, Path], resolution: str) -> None:
    root, _ = tree
    put_entry(root / "a" / "b" / "c", b"made", root=root)
    assert read_beneath(root, "a/b/c") == b"made"
    beneath.chmod(root, "a/b/c", 0o600)
    assert beneath.lstat(root, "a/b/c").st_mode & 0o777 == 0o600
    (root / "a" / "b" / "deep").mkdir()
    (root / "a" / "b" / "deep" / "x").write_text("x")
    os.chmod(root / "a" / "b" / "deep", 0)
    beneath.remove(root, "a")
    assert not (root / "a").exists()
    with pytest.raises(OSError):
        beneath.parts_of("a/../b")


def test_reads_and_writes_racing_a_swap_never_reach_outside(tree: tuple[Path, Path], resolution: str) -> None:
    root, outside = tree
    seen: set[bytes | None] = set()
    with swapping(root / "d", outside):
        deadline = time.monotonic() + RACE_S
        while time.monotonic() < deadline:
            seen.add(read_beneath(root, "d/f"))
            with contextlib.suppress(OSError):
                put_entry(root / "d" / "pwned", b"written by the engine", root=root)
            with contextlib.suppress(OSError):
                beneath.chmod(root, "d/f", 0o666)
    assert b"HOST SECRET\n" not in seen
    assert sorted(p.name for p in outside.iterdir()) == ["f"]
    assert (outside / "f").stat().st_mode & 0o777 != 0o666


def test_removals_racing_a_swap_never_reach_outside(tree: tuple[Path, Path], resolution: str) -> None:
    root, outside = tree
    with swapping(root / "d", outside):
        deadline = time.monotonic() + RACE_S
        while time.monotonic() < deadline:
            beneath.remove(root, "d/f")
            put_entry(root / "d" / "f", None, root=root)
            with contextlib.suppress(OSError):
                put_entry(root / "d" / "f", b"inside\n", root=root)
    assert (outside / "f").read_text() == "HOST SECRET\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="handing over to another uid needs root")
def test_the_hand_over_racing_a_swap_never_chowns_outside(tree: tuple[Path, Path], resolution: str) -> None:
    root, outside = tree
    uid = 1_600_000_123
    os.chown(outside / "f", 0, 0)
    handing = HandOver((root,), uid)
    with swapping(root / "d", outside):
        deadline = time.monotonic() + RACE_S
        while time.monotonic() < deadline:
            handing.run()
            HandOver((root,), uid).run()  # nothing known: every folder looked into
    assert (outside / "f").stat().st_uid == 0 and outside.stat().st_uid != uid
    real = next(p for p in root.iterdir() if not p.is_symlink())  # the swap stopped either way round
    handing.run()
    assert (real / "f").stat().st_uid == uid
