"""The shim's check where no command may write its wrappers (sandbox/commands/shim.py, a hardened jail of an engine
run as root): a quiet folder costs no look at the wrappers, and every change to them is still found and put back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox.commands.shim import Shim
from sandbox.jail.isolation import SYSTEM_PATH
from tests.sandbox._support import counting_lstat

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the watch is only for an engine run as root")


@pytest.fixture
def shim(tmp_path: Path) -> Shim:
    made = Shim(tmp_path, ["git", "ls", "rm"], SYSTEM_PATH, covering=True, traced=True, hardened=True)
    made.install()
    assert made.check() == []  # the first check looks at everything, and watches
    return made


def test_a_quiet_shim_is_not_looked_at(shim: Shim, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting_lstat(monkeypatch)
    try:
        assert shim.check() == []
        assert calls == [str(shim.fifo)]  # the audit channel's own check only: no wrapper looked at
    finally:
        shim.close()


@pytest.mark.parametrize(
    "change",
    [
        lambda d: (d / "git").write_text("#!/bin/sh\nexec /usr/bin/git \"$@\"\n"),
        lambda d: os.chmod(d / "ls", 0o755),
        lambda d: (d / "rm").unlink(),
        lambda d: (d / "rm").rename(d / "gone"),
        lambda d: (d / "extra").write_text("x"),
    ],
    ids=["written", "chmod", "removed", "renamed", "added"],
)
def test_every_change_is_found_and_put_back(shim: Shim, change: object) -> None:
    try:
        expected = {name: (shim.dir / name).read_text() for name in ("git", "ls", "rm")}
        for name in expected:
            os.chmod(shim.dir / name, 0o755)  # root's own change (no command can make one), then each kind of change
        shim.check()
        change(shim.dir)  # type: ignore[operator]
        assert shim.check() != []
        assert {name: (shim.dir / name).read_text() for name in expected} == expected
        assert sorted(os.listdir(shim.dir)) == sorted(expected)
        assert shim.check() == []
    finally:
        shim.close()


def test_an_unhardened_jail_looks_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its commands run as the engine's uid: they could write a wrapper through another name, unseen by a watch."""
    plain = Shim(tmp_path, ["git"], SYSTEM_PATH, covering=True, traced=True, hardened=False)
    plain.install()
    try:
        plain.check()
        calls = counting_lstat(monkeypatch)
        assert plain.check() == []
        assert calls != []
    finally:
        plain.close()
