"""Big contents the engine knows are kept on disk in the sandbox's private folder, not in its memory (red team
round 4, 09: one command writing 300 MB in the agent's own folder grew the engine by 293 MB). The events, rollbacks
and test runs are the same as for contents held in memory."""

from __future__ import annotations

from channel.bus import Subscription
from channel.emitter import Emitter
from channel.events import FileChanged, WriteRefused
from channel.memory import InProcessBus
from sandbox.backends.local import LocalSandbox
from sandbox.commands.volume import DIFF_MAX, clip_text
from sandbox.workspace import spill
from sandbox.workspace.diffs import unified_diff
from sandbox.workspace.ownership import Ownership
from tests.sandbox._support import FILES, TEAMS, drain

BIG = "".join(f"line {i}\n" for i in range(60_000)).encode()  # ~650 KB
THEIRS = "".join(f"row {i}\n" for i in range(50_000))


async def test_big_contents_are_on_disk_and_the_events_are_the_same(bus: InProcessBus, events: Subscription) -> None:
    sb = await LocalSandbox.create(
        {**FILES, "services/payments/table.txt": THEIRS}, ownership=Ownership.from_teams(TEAMS),
        emitter=Emitter(bus, "t"), watch=False,
    )
    try:
        sb.register_actor("alice", "billing")
        known = sb._reconciler
        assert spill.is_spilled(known.snapshot()["services/payments/table.txt"])
        made = await sb.run_shell("alice", "cd services/billing && seq -f 'line %g' 0 59999 > big0.txt && "
                                           "for i in 1 2 3; do cp big0.txt big$i.txt; done")
        assert made.exit_code == 0, made.output
        await sb.run_shell("alice", "echo more >> services/billing/big0.txt; echo x >> services/payments/table.txt")
        seen = await drain(events)
        changed = {e.path: e for e in seen if isinstance(e, FileChanged) and e.actor == "alice"}
        assert clip_text(unified_diff("services/billing/big1.txt", None, BIG), DIFF_MAX) == changed[
            "services/billing/big1.txt"].diff  # fmt: skip
        assert changed["services/billing/big0.txt"].diff.endswith(" line 59999\n+more\n")
        [refused] = [e for e in seen if isinstance(e, WriteRefused) and e.path == "services/payments/table.txt"]
        assert refused.rolled_back and refused.diff.endswith("+x\n")
        assert (sb.root / "services/payments/table.txt").read_text() == THEIRS
        assert known.spill.resident < 64 * 1024  # the small files only
        assert len(list(known.spill.folder.iterdir())) == 3  # BIG, BIG + "more", THEIRS
        outcome = await sb.run_tests({"test_big.py": (
            "import pathlib\n"
            "def test_big():\n"
            "    assert pathlib.Path('services/billing/big2.txt').read_bytes().count(b'\\n') == 60_000\n"
        )})  # fmt: skip
        assert outcome.passed == ("test_big.py::test_big",), outcome
        await sb.run_shell("alice", "rm services/billing/big*.txt")
        assert len(list(known.spill.folder.iterdir())) == 1  # THEIRS
    finally:
        await sb.close()
