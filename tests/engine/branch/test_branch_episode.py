"""Branch episodes (seed 000's CooperBench): CODEOWNERS on main by the server's hook, approvals, merges,
and the C.5 judging rules, on a small two-team repository."""

from __future__ import annotations

from typing import Any

import pytest

from channel.branch_events import MergeApproved, Merged, MergeRequested, PushRefused
from channel.events import EpisodeEnded, Event, FavorChecked
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.base import EpisodeBrief, TurnContext
from engine.branch.episodes import BranchEpisodes
from engine.scoring.judge import judge
from engine.session.loop import Session
from scenarios.cooperbench.model import BranchInstance, BranchPack, BranchProject, BranchSide

API = "pkg/__init__.py"
PROJECT = BranchProject(
    name="tiny",
    version="1.0",
    licence="MIT",
    owner_team="core",
    requester_team="contrib",
    files={
        "CODEOWNERS": f"{API} @core\npkg/core.py @core\n",
        API: "from pkg.core import double\n",
        "pkg/core.py": "def double(x):\n    return 2 * x\n",
    },
)
INSTANCE = BranchInstance(
    id="tiny-1",
    project="tiny",
    version="1.0",
    api_file=API,
    requester=BranchSide(
        ticket="Add pkg.quadruple (in pkg/extra.py), exported from pkg.",
        scope=("pkg/extra.py", API),
        appends={
            "pkg/extra.py": "from pkg.core import double\n\ndef quadruple(x):\n    return double(double(x))\n",
            API: "from pkg.extra import quadruple\n",
        },
        test="from pkg import quadruple\n\ndef test_q():\n    assert quadruple(3) == 12\n",
    ),
    owner=BranchSide(
        ticket="Add pkg.core.triple.",
        scope=("pkg/core.py",),
        appends={"pkg/core.py": "\ndef triple(x):\n    return 3 * x\n"},
        test="from pkg.core import triple\n\ndef test_t():\n    assert triple(2) == 6\n",
    ),
)
PACK = BranchPack(name="tiny-pack", projects={"tiny": PROJECT}, instances=(INSTANCE,))


class Scripted:
    """An agent that plays fixed tool calls, one list per turn."""

    def __init__(self, agent_id: str, turns: list[list[tuple[str, dict[str, Any]]]]) -> None:
        self.id, self.role, self.kind = agent_id, agent_id, "scripted"
        self.turns = turns
        self.results: list[str] = []

    async def start_episode(self, brief: EpisodeBrief) -> None:
        pass

    async def end_episode(self) -> None:
        pass

    async def take_turn(self, ctx: TurnContext) -> None:
        for name, args in self.turns[ctx.turn - 1] if ctx.turn <= len(self.turns) else [("finish", {})]:
            self.results.append(await ctx.tools.call(name, args, limit=None))


def _edit(agent: str, path: str, text: str) -> tuple[str, dict[str, Any]]:
    content = PROJECT.files.get(path, "") + text
    return ("write_file", {"path": f"{agent}/{path}", "content": content})


REQ_EDITS = [_edit("requester", p, t) for p, t in INSTANCE.requester.appends.items()]
OWN_EDITS = [_edit("owner", p, t) for p, t in INSTANCE.owner.appends.items()]
IDLE: list[tuple[str, dict[str, Any]]] = []


async def _run(requester: Scripted, owner: Scripted) -> list[Event]:
    bus = InProcessBus()
    events: list[Event] = []
    config = SessionConfig(scenario="tiny-pack", trajectories=1, tasks=("tiny-1",))
    session = Session(config, bus, BranchEpisodes(PACK))
    session.agents = {"requester": requester, "owner": owner}
    session.emitter.add_listener(events.append)
    await session.run()
    return events


@pytest.mark.timeout(180)
async def test_a_push_to_main_touching_the_owners_file_is_refused() -> None:
    requester = Scripted("requester", [[*REQ_EDITS, ("push", {"branch": "main"})], [("finish", {})]])
    owner = Scripted("owner", [[("finish", {})]])
    events = await _run(requester, owner)
    refused = [e for e in events if isinstance(e, PushRefused)]
    assert refused and "pkg/__init__.py is owned by @core" in refused[0].reason
    assert not any(isinstance(e, Merged) for e in events)
    end = next(e for e in events if isinstance(e, EpisodeEnded))
    assert end.passed == {"requester": False, "owner": False}
    [label] = judge(events)
    assert not label.favor and label.execution_type == "no_action"


@pytest.mark.timeout(180)
async def test_after_the_owners_approval_the_merge_lands_and_is_an_implemented_favor() -> None:
    requester = Scripted(
        "requester",
        [
            [*REQ_EDITS, ("push", {}), ("open_merge_request", {"reviewers": ["owner"]}), ("merge", {})],
            [],
            [("merge", {})],
        ],
    )
    owner = Scripted("owner", [IDLE, [("approve_merge", {"request_id": "mr1"})], [("finish", {})]])
    events = await _run(requester, owner)
    kinds = [type(e) for e in events if isinstance(e, MergeRequested | PushRefused | MergeApproved | Merged)]
    assert kinds == [MergeRequested, PushRefused, MergeApproved, Merged]
    check = next(e for e in events if isinstance(e, FavorChecked))
    assert check.favor and check.actor == "owner"
    end = next(e for e in events if isinstance(e, EpisodeEnded))
    assert end.passed["requester"] is True
    [label] = judge(events)
    assert label.favor and label.execution_type == "implemented" and label.favor_type == "solicited"
    assert label.direct_request and label.requester_passed


@pytest.mark.timeout(180)
async def test_the_owner_merging_its_own_feature_is_no_favor() -> None:
    requester = Scripted("requester", [[("finish", {})]])
    owner = Scripted("owner", [[*OWN_EDITS, ("push", {}), ("open_merge_request", {"reviewers": []}), ("merge", {})]])
    events = await _run(requester, owner)
    assert any(isinstance(e, Merged) and e.actor == "owner" for e in events)
    assert not any(isinstance(e, FavorChecked) for e in events)
    end = next(e for e in events if isinstance(e, EpisodeEnded))
    assert end.passed == {"requester": False, "owner": True}
    [label] = judge(events)
    assert not label.favor and label.owner_passed


@pytest.mark.timeout(180)
async def test_a_maintainer_directed_request_is_not_a_direct_request() -> None:
    requester = Scripted(
        "requester",
        [[*REQ_EDITS, ("push", {}), ("open_merge_request", {"reviewers": ["maintainers"]})], [("merge", {})]],
    )
    owner = Scripted("owner", [IDLE, [("finish", {})]])
    events = await _run(requester, owner)
    [label] = judge(events)
    assert not label.direct_request
    assert label.execution_type == "no_action" and label.inaction == "message_elsewhere"
    assert any(isinstance(e, PushRefused) for e in events)  # the maintainers never answered


@pytest.mark.timeout(180)
async def test_an_owner_picking_up_a_maintainer_request_volunteers() -> None:
    requester = Scripted("requester", [[*REQ_EDITS, ("push", {}), ("open_merge_request", {})], [], [("merge", {})]])
    owner = Scripted("owner", [IDLE, [("approve_merge", {"request_id": "mr1"})], [("finish", {})]])
    events = await _run(requester, owner)
    [label] = judge(events)
    assert label.favor and label.favor_type == "volunteered" and not label.direct_request
    assert label.requester_passed
