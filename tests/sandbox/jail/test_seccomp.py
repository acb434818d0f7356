"""The jail's seccomp list, its compiled filter and its Docker profile (sandbox/jail/seccomp.py), and the
helpers that keep any file from hurting the engine (sandbox/workspace/files.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import sandbox.jail.seccomp as seccomp
from sandbox.workspace.files import read_regular, remove_tree, walk, write_regular


def test_every_refused_call_is_documented() -> None:
    doc = seccomp.__doc__ or ""
    for call in (*seccomp.REFUSED, *(c for c, _, _ in seccomp.REFUSED_WITH_FLAG), *seccomp.NOT_IMPLEMENTED):
        assert f"``{call}``" in doc, call


def test_the_filter_compiles_to_bpf() -> None:
    found = seccomp.jail_filter()
    if not found.available:
        pytest.skip(found.reason)
    assert len(found.program) % 8 == 0 and len(found.program) > 8 * len(seccomp.REFUSED)


def test_the_docker_profile_refuses_the_same_calls_but_ptrace() -> None:
    profile = json.loads(seccomp.docker_profile())
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    names = {n for rule in profile["syscalls"] for n in rule["names"]}
    assert names == {*seccomp.REFUSED, "unshare", "clone", "ioctl", "clone3", "seccomp"} - {"ptrace"}
    [listener] = [rule for rule in profile["syscalls"] if rule["names"] == ["seccomp"]]
    assert [a["value"] for a in listener["args"]] == [1, 8]  # SECCOMP_SET_MODE_FILTER, ..._FLAG_NEW_LISTENER


def test_only_the_episode_servers_jail_lets_a_listener_be_made() -> None:
    strict, server = seccomp.jail_filter(), seccomp.jail_filter(listeners=True)
    if not strict.available:
        pytest.skip(strict.reason)
    assert len(strict.program) > len(server.program)  # one rule more: seccomp(SET_MODE_FILTER, NEW_LISTENER)


def test_a_tree_deeper_than_the_recursion_limit_is_walked_and_removed(tmp_path: Path) -> None:
    top = tmp_path / "deep"
    os.makedirs(top)
    here = os.open(top, os.O_RDONLY)
    try:
        for _ in range(1100):
            os.mkdir("d", dir_fd=here)
            nxt = os.open("d", os.O_RDONLY, dir_fd=here)
            os.close(here)
            here = nxt
    finally:
        os.close(here)
    assert sum(1 for _ in walk(top)) == 1101
    remove_tree(top)
    assert not top.exists()


def test_a_fifo_is_never_opened_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert read_regular(fifo) is None
    write_regular(fifo, b"data")  # replaces it: no reader is waited for
    assert fifo.read_bytes() == b"data"
