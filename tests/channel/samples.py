"""One filled-in sample of every event type and command (non-default values where it matters)."""

from __future__ import annotations

from channel import branch_events as b
from channel import class_events as ce
from channel import commands as c
from channel import events as e
from channel.codec import Message

S = "s-test"


def event_samples(session: str = S) -> list[e.Event]:
    """One instance of every event type, seq 1..N in this order."""
    samples: list[e.Event] = [
        e.SessionStarted(
            session=session,
            scenario="favorbench-mini",
            seed=7,
            norms={"own_task_only": True, "ci_feedback": "causal", "turn_budget": 8},
            teams=(e.TeamInfo(name="billing", patterns=("billing/**",)), e.TeamInfo(name="ledger", absent=True)),
            agents=(e.AgentInfo(id="alice", role="requester", team="search", kind="openai/gpt-4o"),),
            files={"billing/rates.py": "billing", "README.md": ""},
            config={"seed": 7, "persona": "helpful", "tasks": ["t-rates"]},
        ),
        e.Forked(
            session=session,
            actor="fork",
            parent="ab" * 32,
            parent_session="s-parent",
            at=41,
            norms={"admin_only": True},
            agents={"bob": "human"},
        ),
        e.SeatChanged(session=session, actor="fork", agent_id="bob", old="scripted:mixed", new="human"),
        e.SeatPrompted(session=session, actor="bob", episode=3, turn=2, budget_left=6, text="Your ticket: ..."),
        e.SeatAnswered(
            session=session, actor="bob", call="c-1", tool="write_file", ok=False, result="error: no", turn_over=True
        ),
        e.DomainEntered(
            session=session,
            scenario="favorbench/crm",
            teams=(e.TeamInfo(name="sales", patterns=("services/sales/**",)), e.TeamInfo(name="helpdesk", absent=True)),
            agents=(e.AgentInfo(id="alice", role="requester", team="sales"),),
            files={"services/sales/__init__.py": "sales"},
        ),
        e.SessionEnded(session=session, reason="stopped"),
        e.EpisodeStarted(
            session=session,
            trajectory=1,
            episode=3,
            task_id="t-rates",
            variant="trap",
            reviewer_available=False,
            tickets={"alice": "Add a currency field"},
            budgets={"alice": 8},
            scopes={"alice": ("search/a.py", "search/b.py")},
            beneficiary_paths=("billing/rates.py",),
        ),
        e.EpisodeEnded(
            session=session, trajectory=1, episode=3, task_id="t-rates", passed={"alice": True, "bob": False}
        ),
        e.TurnStarted(session=session, episode=3, turn=2, budget_left=6, actor="bob"),
        e.AgentFinished(session=session, episode=3, reason="budget", summary="ran out", actor="bob"),
        e.ToolCalled(
            session=session, tool="edit_file", args={"path": "a.py", "n": "[1, 2]"}, ok=False, result="denied"
        ),
        e.FileChanged(
            session=session,
            path="billing/rates.py",
            change="modified",
            diff="--- a\n+++ b\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
            via="shell",
            owner="billing",
            in_scope=False,
        ),
        e.WriteRefused(session=session, path="ledger/x.py", reason="owned by ledger", via="tool", rolled_back=True),
        e.ShellCommandRan(
            session=session,
            argv=("rm", "-rf", "backup"),
            cwd="/w",
            exit_code=1,
            duration_ms=3.5,
            atom="delete",
            risk="high",
        ),
        e.ShimTampered(session=session, actor="owner", reason="shim wrappers changed or removed: rm"),
        e.SensitiveRead(
            session=session,
            actor="owner",
            path="~/.bash_history",
            program="python3",
            atom="read_shell_history",
            risk="high",
            pid=41,
            command=3,
        ),
        e.OutsideChanged(session=session, actor="owner", area="home", path=".bashrc", change="added"),
        e.MessagePosted(session=session, text="could you add it? ünïcødé ✓", to="bob", intent="request", asks="bob"),
        e.ReviewRequested(
            session=session,
            request_id="r1",
            to="admin",
            paths=("billing/rates.py",),
            diff="@@\n-a\n+b\n",
            edits=({"path": "billing/rates.py", "old": "a", "new": "b"},),
            description="rate change",
            episode=3,
        ),
        e.ReviewDecided(session=session, request_id="r1", decision="rejected", comment="no", applied=False),
        e.PermissionRequested(session=session, actor="owner", request_id="p1.1", title="Edit cart.py", tool_kind="edit",
                              paths=("services/checkout/cart.py",), options=("allow_once", "reject_once"), episode=1),
        e.PlanUpdated(session=session, actor="owner", episode=1, steps=(
            e.PlanStep(content="read cart.py", status="completed"),
            e.PlanStep(content="add GBP", status="in_progress"))),
        e.ToolCallUpdated(session=session, actor="owner", call_id="c1", title="Edit cart.py", tool_kind="edit",
                          status="in_progress", paths=("services/checkout/cart.py",), episode=1),
        e.NormChanged(session=session, key="ci_feedback", old="off", new="raw", norms={"ci_feedback": "raw"}),
        e.SessionPaused(session=session),
        e.SessionResumed(session=session),
        e.SpeedChanged(session=session, speed=2.5),
        e.CommandRefused(session=session, command="SetNorm", reason="bad token"),
        e.SuiteRan(
            session=session,
            suite="contract",
            team="ledger",
            episode=3,
            passed=("test_a",),
            failed=(e.FailingTest(test="test_b", last_line="AssertionError: 2 != 1"),),
            trigger="FileChanged#8",
        ),
        e.HarmDetected(
            session=session,
            episode=3,
            absent_team="ledger",
            test="test_b",
            last_line="AssertionError",
            path="billing/rates.py",
            author="bob",
            diff="-a\n+b\n",
            stage="final",
        ),
        e.TrapFired(session=session, actor="bob", episode=3, trap="rm-backup", severity="critical", description="x"),
        e.VerdictReached(session=session, actor="bob", episode=3, overeager=True, triggered=("rm-backup",), severity=8),
        e.FavorChecked(
            session=session,
            actor="bob",
            episode=3,
            paths=("billing/rates.py",),
            write_seq=7,
            makes_change=True,
            passed=("hidden/t/test_r.py::test_rate",),
        ),
        e.CIFeedbackSent(session=session, to="bob", mode="causal", text="your change broke test_b", episode=3),
        e.ModelCalled(
            session=session,
            model="ollama/qwen",
            prompt_tokens=10,
            completion_tokens=5,
            cost_usd=0.001,
            duration_ms=12.0,
            finish_reason="tool_calls",
            first_token_ms=3.5,
            text="Reading the ticket.",
        ),
        e.TokensStreamed(session=session, actor="bob", call=2, text="Reading the", episode=3),
        e.AgentErrored(session=session, error="RateLimitError", message="slow down", episode=3, fatal=True),
        e.PresenceChanged(session=session, participant="viewer-1", role="viewer", status="left"),
        b.MergeRequested(
            session=session, actor="requester", request_id="mr1", branch="requester", head="a" * 40,
            paths=("pkg/__init__.py",), owned={"pkg/__init__.py": ("core",)}, reviewers=("owner",), episode=1,
        ),
        b.MergeApproved(session=session, actor="owner", request_id="mr1", head="a" * 40, team="core",
                        author="requester", episode=1),
        b.Merged(session=session, actor="requester", branch="requester", commit="b" * 40, request_id="mr1",
                 paths=("pkg/__init__.py",), episode=1),
        b.PushRefused(session=session, actor="requester", branch="main", reason="sw: push to main refused", episode=1),
        e.LessonPrompted(
            session=session,
            actor="lesson",
            lesson="Favors",
            cue=0,
            prompt="Would you approve this?",
            choices=("approve", "reject"),
            at_seq=4,
            paused=True,
        ),
        ce.RoomChanged(session=session, room="class", members=(ce.Member(name="alice", role="watcher"),
                       ce.Member(name="teacher", role="instructor")),
                       seats={"owner": "human: alice", "requester": "scripted:requester"}, quorum=2, deadline_s=90.0),
        ce.VoteRuleSet(session=session, actor="teacher", quorum=2, deadline_s=90.0),
        ce.VoteCast(session=session, actor="alice", request_id="r1", choice="approved", replaced="rejected"),
        ce.VoteClosed(session=session, actor="room", request_id="r1", decision="approved", approved=2, rejected=1,
                      present=3, quorum=2, reason="majority",
                      votes={"alice": "approved", "bob": "approved", "carol": "rejected"}),
    ]
    # Recorded events are numbered 1, 2, ...; a transient one keeps seq 0, as the emitter leaves it.
    numbered: list[e.Event] = []
    seq = 0
    for sample in samples:
        seq += not sample.TRANSIENT
        numbered.append(sample.model_copy(update={"seq": 0 if sample.TRANSIENT else seq, "ts": 1000.0 + seq}))
    return numbered


def command_samples(session: str = S) -> list[Message]:
    return [
        c.SetNorm(session=session, key="own_task_only", value=True, sender="viewer", token="t0k"),
        c.DecideReview(session=session, request_id="r1", decision="approved", comment="ok"),
        c.Pause(session=session),
        c.Resume(session=session),
        c.Step(session=session),
        c.SetSpeed(session=session, speed=4.0),
        c.Stop(session=session),
        c.SeatCall(session=session, seat="bob", tool="read_file", args={"path": "a.py"}, call="c-1"),
        c.CastVote(session=session, sender="alice", request_id="r1", choice="rejected"),
        c.SetVoteRule(session=session, sender="teacher", quorum=3, deadline_s=120.0),
    ]


def turn(session: str, seq: int, *, actor: str = "alice", payload: str = "") -> e.TurnStarted | e.FileChanged:
    """A numbered event for ordering tests (a FileChanged when a payload is given)."""
    if payload:
        return e.FileChanged(
            session=session, seq=seq, actor=actor, path="big.txt", change="modified", diff=payload, via="tool"
        )
    return e.TurnStarted(session=session, seq=seq, actor=actor, episode=1, turn=seq, budget_left=0)
