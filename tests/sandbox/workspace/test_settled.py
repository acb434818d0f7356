"""Files read at every command: read again only when changed (settled signatures), and one ref read alone."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sandbox.workspace import settled
from sandbox.workspace.remote import read_ref, read_refs
from sandbox.workspace.settled import EntryCache


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    real = settled.read_entry
    monkeypatch.setattr(settled, "read_entry", lambda path: reads.append(str(path)) or real(path))
    return reads


def test_an_unchanged_file_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settled, "SETTLED_NS", -(10**12))  # as a moment later: every change settled
    reads = _counting(monkeypatch)
    hook, cache = tmp_path / "pre-commit", EntryCache()
    hook.write_bytes(b"#!/bin/sh\n")
    assert cache.read(hook) == b"#!/bin/sh\n" and cache.read(hook) == b"#!/bin/sh\n"
    assert len(reads) == 1
    st = hook.stat()
    hook.write_bytes(b"#!/bin/X\n")  # same size, and its mtime put back: its ctime still moved
    os.utime(hook, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache.read(hook) == b"#!/bin/X\n" and len(reads) == 2
    other = tmp_path / "other"
    other.write_bytes(b"#!/bin/sh\n")
    os.replace(other, hook)  # another inode under the name
    assert cache.read(hook) == b"#!/bin/sh\n" and len(reads) == 3
    hook.unlink()
    hook.symlink_to("/etc/passwd")
    assert cache.read(hook) != b"#!/bin/sh\n" and len(reads) == 4
    hook.unlink()
    assert cache.read(hook) is None


def test_a_file_changed_within_the_tick_is_read_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = _counting(monkeypatch)
    config, cache = tmp_path / "config", EntryCache()
    config.write_bytes(b"[core]\n")
    cache.read(config)
    cache.read(config)
    assert len(reads) == 2  # just written: no signature yet


def _git(repo: Path, *args: str) -> None:
    env = {"PATH": os.environ["PATH"], "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, env=env, check=True)


def test_one_ref_reads_as_every_ref_has_it(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "one")
    _git(repo, "branch", "packed")
    _git(repo, "pack-refs", "--all")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "two")  # main: loose again, newer than its packed line
    git = repo / ".git"
    (git / "refs/heads/symbolic").write_text("ref: refs/heads/main\n")
    (git / "refs/heads/empty").write_text("")
    (git / "refs/linked").symlink_to(git / "refs/heads")
    (git / "refs/heads/folder").mkdir()
    every = read_refs(git)
    names = ["refs/heads/main", "refs/heads/packed", "refs/heads/symbolic", "refs/heads/empty", "refs/linked/main"]
    names += ["refs/heads/folder", "refs/heads/none", "refs/heads/../heads/main", "HEAD", "refs//heads/main"]
    for name in names:
        assert read_ref(git, name) == every.get(name, ""), name
    assert read_ref(git, "refs/heads/main") != read_ref(git, "refs/heads/packed") != ""
