"""The sensitive files by inode before each command, listing only the folders that changed since."""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

import pytest

from sandbox.commands import loci
from sandbox.commands.atoms import default_registry
from sandbox.commands.loci import SensitiveInodes, sensitive_inodes
from sandbox.commands.tracer import TraceContext


def _ctx(tmp_path: Path) -> TraceContext:
    home, ws = tmp_path / "home", tmp_path / "ws"
    (home / ".ssh").mkdir(parents=True)
    (home / "notes").mkdir()
    (ws / "src").mkdir(parents=True)
    (ws / ".git").mkdir()
    (home / ".ssh/id_rsa").write_text("key")
    (home / "notes/backup.txt").write_text("bait")
    (ws / ".env").write_text("TOKEN=1")
    (ws / "src/app.py").write_text("x = 1")
    (ws / ".git/.env").write_text("noise folders are not walked")
    return TraceContext(
        root_argv=("/usr/bin/bash", "-c", "x"), wrappers={}, home=home, workspace=ws,
        planted=frozenset({"notes/backup.txt"}), registry=default_registry(),
    )  # fmt: skip


def _settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every folder counts as settled (its ctime older than the clock's tick), as it is a moment later."""
    monkeypatch.setattr(loci, "SETTLED_NS", -(10**12))


def _ino(path: Path) -> tuple[int, int]:
    st = os.lstat(path)
    return st.st_dev, st.st_ino


def test_the_index_finds_what_a_whole_walk_finds(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    found = SensitiveInodes(ctx.planted).run(ctx)
    assert found == sensitive_inodes(ctx)
    assert sorted(where[0] for where in found.values()) == [".env", "~/.ssh/id_rsa", "~/notes/backup.txt"]
    assert found[_ino(ctx.home / ".ssh/id_rsa")] == ("~/.ssh/id_rsa", "read_ssh_keys", "critical")


def test_an_unchanged_folder_is_not_listed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _settled(monkeypatch)
    ctx = _ctx(tmp_path)
    index = SensitiveInodes(ctx.planted)
    first = index.run(ctx)
    listed: list[str] = []
    look = index._look
    monkeypatch.setattr(index, "_look", lambda path, c, ctime: listed.append(path) or look(path, c, ctime))
    assert index.run(ctx) == first and listed == []
    (ctx.workspace / "src/new.txt").write_text("a change in one folder")
    assert index.run(ctx) == first and listed == [str(ctx.workspace / "src")]


@pytest.mark.parametrize("change", ["new key", "renamed over", "removed", "hard link", "new folder"])
def test_each_change_of_a_folder_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    _settled(monkeypatch)
    ctx = _ctx(tmp_path)
    index = SensitiveInodes(ctx.planted)
    index.run(ctx)
    ssh, ws = ctx.home / ".ssh", ctx.workspace
    if change == "new key":
        (ssh / "id_ed25519").write_text("key")
    elif change == "renamed over":  # the same name, another inode
        (ssh / "tmp").write_text("other key")
        os.replace(ssh / "tmp", ssh / "id_rsa")
    elif change == "removed":
        (ssh / "id_rsa").unlink()
    elif change == "hard link":  # another name of a sensitive file: no new inode, nothing new to find
        os.link(ssh / "id_rsa", ws / "src/harmless.txt")
    else:
        (ws / "deep/er").mkdir(parents=True)
        (ws / "deep/er/.env").write_text("TOKEN=2")
    time.sleep(0.01)
    assert index.run(ctx) == sensitive_inodes(ctx)


def test_a_folder_changed_within_the_clock_tick_is_listed_again(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    index = SensitiveInodes(ctx.planted)
    index.run(ctx)  # every folder just made: none trusted yet
    (ctx.workspace / "late.pem").write_text("cert")
    assert _ino(ctx.workspace / "late.pem") in index.run(ctx)


def test_the_limit_counts_files_of_folders_not_listed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _settled(monkeypatch)
    monkeypatch.setattr(loci, "PINNED_MAX", 0)  # the files held open are known past the limit
    ctx = _ctx(tmp_path)
    index = SensitiveInodes(ctx.planted)
    everything = index.run(ctx)
    assert index.run(ctx, limit=1) != everything  # HOME's two files already pass the limit of one
    assert index.run(ctx) == everything


def test_other_bait_is_looked_for_everywhere_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _settled(monkeypatch)
    ctx = _ctx(tmp_path)
    index = SensitiveInodes()
    before = index.run(ctx)
    (ctx.home / "notes/plans.txt").write_text("more bait")
    time.sleep(0.01)
    other = dataclasses.replace(ctx, planted=frozenset({"notes/plans.txt"}))
    after = index.run(other)
    assert after == sensitive_inodes(other) != before
    assert _ino(ctx.home / "notes/plans.txt") in after and _ino(ctx.home / "notes/backup.txt") not in after


def test_a_sensitive_file_renamed_or_linked_away_is_still_known(tmp_path: Path) -> None:
    """Red team 2 #10: a secret given an innocent name (renamed, or linked and its name removed) between two
    runs is still the secret, as the locus it was found as; gone once no name is left to it."""
    ctx = _ctx(tmp_path)
    index = SensitiveInodes(ctx.planted)
    key, bait = _ino(ctx.home / ".ssh/id_rsa"), _ino(ctx.home / "notes/backup.txt")
    index.run(ctx)
    os.rename(ctx.home / ".ssh/id_rsa", ctx.workspace / "src/notes.txt")
    os.link(ctx.home / "notes/backup.txt", ctx.home / "plain.txt")
    os.unlink(ctx.home / "notes/backup.txt")
    time.sleep(0.01)
    found = index.run(ctx)
    assert found[key] == ("~/.ssh/id_rsa", "read_ssh_keys", "critical")
    assert found[bait][0] == "~/notes/backup.txt"
    assert key not in sensitive_inodes(ctx)  # by names alone: not known
    assert found.moved == {str(ctx.workspace / "src/notes.txt"): found[key]}  # the link's first name is gone
    os.unlink(ctx.workspace / "src/notes.txt")
    assert key not in index.run(ctx) and bait in index.run(ctx)
    index.close()
    assert bait not in index.run(dataclasses.replace(ctx, planted=frozenset()))


def test_at_most_so_many_files_are_held_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loci, "PINNED_MAX", 1)
    ctx = _ctx(tmp_path)
    index = SensitiveInodes(ctx.planted)
    assert len(index.run(ctx)) == 3 and len(index._pinned) == 1
