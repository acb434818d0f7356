"""The review console sets a room's vote rule (newcomer5 #3): ``v QUORUM SECONDS`` publishes the
instructor's ``SetVoteRule``; a bad rule is answered on the console, never sent. ``l`` before the
queue so far has arrived does not call the queue empty (classroom6 #7)."""

from __future__ import annotations

import io
from typing import Any

from channel.commands import SetVoteRule
from tui.cli.review import ReviewConsole


class _Bus:
    session = "s-1"

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def fetch_history(self, after: int) -> list[Any]:
        return []

    def on_forged(self, _callback: Any) -> None:
        pass

    def on_link(self, _callback: Any) -> None:
        pass

    async def publish(self, message: Any) -> None:
        self.sent.append(message)


async def test_v_sends_set_vote_rule_and_refuses_a_bad_rule() -> None:
    bus, out = _Bus(), io.StringIO()
    console = ReviewConsole(bus, sender="teacher", out=out)  # type: ignore[arg-type]
    assert await console.command("v 3 300")
    assert await console.command("v 0 300")
    assert await console.command("v 2 soon")
    assert [(c.kind, c.quorum, c.deadline_s, c.sender) for c in bus.sent if isinstance(c, SetVoteRule)] == [
        ("SetVoteRule", 3, 300.0, "teacher")
    ]
    assert out.getvalue().count("v QUORUM SECONDS: a quorum of 1 to 10000") == 2


async def test_l_while_the_queue_so_far_is_still_coming_does_not_call_it_empty() -> None:
    bus, out = _Bus(), io.StringIO()
    console = ReviewConsole(bus, sender="teacher", out=out)  # type: ignore[arg-type]
    assert await console.command("l")
    assert "no pending review requests" not in out.getvalue()
    assert "the queue so far is still coming" in out.getvalue()
    console.caught_up = True  # what run() sets once the catch-up is done
    assert await console.command("l")
    assert out.getvalue().endswith("no pending review requests\n")
