"""Work whose cost a command chooses runs off the event loop (red team 5, 02 and 07): the check of what it pushed
(one that pushed 250 long fast-forwards froze the engine 20 s), and the walks of HOME, ``/tmp`` and the workspace
before and after each command once they hold many entries (150,000 folders left in ``/tmp``: 5-9 s a command, for
every later command of every agent)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import pytest

from channel.bus import Subscription
from sandbox.backends.local import LocalSandbox
from sandbox.commands import shell
from sandbox.jail import jailuser
from sandbox.workspace import outside, reconcile
from sandbox.workspace.files import WALK_QUICK


def _spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, where: list[str]) -> None:
    real: Callable[..., Any] = getattr(owner, name)

    def spied(*args: Any, **kwargs: Any) -> Any:
        where.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spied)


async def test_the_check_of_a_push_runs_in_a_thread(
    sandbox: LocalSandbox, events: Subscription, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):  # the last check was quick: before, the next one ran on the loop whatever was pushed
        await sandbox.run_shell("alice", "true")
    where: list[str] = []
    _spy(monkeypatch, shell, "ref_updates", where)
    await sandbox.run_shell("alice", "true")
    pushed = await sandbox.run_shell("alice", "git checkout -qb mine && git commit -qm x --allow-empty && "
                                              "git push -q origin mine")  # fmt: skip
    assert pushed.exit_code == 0, pushed.output
    loop = threading.current_thread().name
    assert where[0] == loop  # nothing pushed: a quick look, on the loop
    assert where[1] != loop


@pytest.mark.skipif(os.geteuid() != 0, reason="HOME, /tmp and the sandbox are tmpfs of their own only as root")
async def test_walks_of_crowded_folders_run_in_a_thread(
    sandbox: LocalSandbox, events: Subscription, monkeypatch: pytest.MonkeyPatch
) -> None:
    await sandbox.run_shell("alice", "true")
    loop = threading.current_thread().name
    many = WALK_QUICK + 500
    made = await sandbox.run_shell("alice", f"mkdir -p /tmp/d && cd /tmp/d && seq {many} | xargs mkdir && "
                                            f"cd - >/dev/null && mkdir services/billing/d && cd services/billing/d && "
                                            f"seq {many} | xargs mkdir")  # fmt: skip
    assert made.exit_code == 0, made.output
    walks: list[str] = []
    scans: list[str] = []
    handed: list[str] = []
    _spy(monkeypatch, outside, "_walk", walks)
    _spy(monkeypatch, reconcile.Reconciler, "changes", scans)
    _spy(monkeypatch, jailuser.HandOver, "run", handed)
    await sandbox.run_shell("bob", "touch services/payments/x")
    assert walks and loop not in walks
    assert scans and loop not in scans
    assert handed == [] or loop not in handed  # no hand-over where commands run as the engine's uid
