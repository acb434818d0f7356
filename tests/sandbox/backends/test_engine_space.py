"""The engine's own files are out of the agents' reach, and an audit the engine cannot keep fails closed (red team 5,
06: alice filled the sandbox's one tmpfs, the engine's copies of her files doubling her share; the exec trace could
not be written, ``run_shell`` raised after her command ran, and her write to payments' file and her read of ``.env``
went unaudited)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from channel.bus import Subscription
from channel.emitter import Emitter
from channel.events import SensitiveRead, ShimTampered, WriteRefused
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace import repo
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS, drain

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox's folders are tmpfs only as root")

AGENTS_SPACE = 48 * 1024 * 1024


@pytest.fixture
async def small(bus: InProcessBus, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LocalSandbox]:
    """A sandbox whose agents' space is 48 MB (a full one in a second, not 2 GB of RAM)."""
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    monkeypatch.setattr(repo, "SANDBOX_MAX", AGENTS_SPACE)
    sb = await LocalSandbox.create(
        {**FILES, ".env": "SECRET_TOKEN=hunter2\n"}, ownership=Ownership.from_teams(TEAMS),
        emitter=Emitter(bus, "space"), isolation=Isolation("bubblewrap"), watch=False,
    )  # fmt: skip
    if not sb.label.endswith("+ strace"):
        await sb.close()
        pytest.skip(f"no exec tracer here: {sb.label}")
    sb.register_actor("alice", "billing")
    yield sb
    await sb.close()


async def test_a_full_agents_space_leaves_the_audit_whole(small: LocalSandbox, events: Subscription) -> None:
    ws = small._workspace
    assert ws.own_tmp and os.stat(ws.tmp).st_dev != os.stat(ws.root).st_dev
    assert small._reconciler.spill.folder.parent == ws.tmp  # the engine's copies of big contents too
    # Big files the engine copies (under 16 MB each), then the rest of the space to the last byte.
    filled = await small.run_shell("alice", "for i in 1 2; do head -c 15M /dev/urandom > services/billing/big$i; done")
    assert filled.exit_code == 0, filled.output
    attack = await small.run_shell(
        "alice", "printf 'TIMEOUT = 0\\n' > services/payments/config.py; cat .env > services/billing/loot.txt; "
        "head -c 40M /dev/zero > services/billing/pad; df -k . | tail -1",
    )  # fmt: skip
    assert " 100% " in attack.output  # the agents' space was full when the command ended
    seen = await drain(events)
    assert [e.path for e in seen if isinstance(e, WriteRefused) and e.rolled_back] == ["services/payments/config.py"]
    assert [e.path for e in seen if isinstance(e, SensitiveRead)] == [".env"]
    assert (small.root / "services/payments/config.py").read_text() == FILES["services/payments/config.py"]


async def test_a_trace_the_engine_cannot_write_fails_the_audit_closed(
    bus: InProcessBus, events: Subscription, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not await _works("bubblewrap"):
        pytest.skip("bubblewrap does not work here")
    monkeypatch.setattr(repo, "ENGINE_MAX", 64 * 1024)  # no room for the trace of a hundred programs
    sb = await LocalSandbox.create(
        FILES, ownership=Ownership.from_teams(TEAMS), emitter=Emitter(bus, "lost"), isolation=Isolation("bubblewrap"),
        watch=False,
    )  # fmt: skip
    try:
        if not sb.label.endswith("+ strace"):
            pytest.skip(f"no exec tracer here: {sb.label}")
        sb.register_actor("alice", "billing")
        ran = await sb.run_shell(
            "alice", "echo mine > services/billing/new.txt; echo more >> services/billing/invoice.py; "
            "echo theirs > services/payments/notes.txt; for i in $(seq 150); do /bin/true \"$i\"; done",
        )  # fmt: skip
        seen = await drain(events)
        refused = {e.path: e.reason for e in seen if isinstance(e, WriteRefused) and e.rolled_back}
        assert sorted(refused) == ["services/billing/invoice.py", "services/billing/new.txt",
                                   "services/payments/notes.txt"]  # fmt: skip
        assert all("could not keep the command's exec trace" in why for why in refused.values())
        assert any("could not keep" in e.reason for e in seen if isinstance(e, ShimTampered))
        assert not (sb.root / "services/billing/new.txt").exists()
        assert (sb.root / "services/billing/invoice.py").read_text() == FILES["services/billing/invoice.py"]
        assert sorted(ran.rolled_back) == sorted(refused)
        monkeypatch.undo()
    finally:
        await sb.close()
