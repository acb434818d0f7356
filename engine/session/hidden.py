"""The agents' own tasks: their hidden tests, run once on the final workspace and reported per agent."""

from __future__ import annotations

from channel.emitter import Emit
from channel.events import SuiteRan
from engine.session.episode import EpisodeRuntime
from sandbox.testing.testrun import TestOutcome
from scenarios.loader import Pack
from scenarios.manifest import Task


async def run_hidden(
    pack: Pack, task: Task, runtime: EpisodeRuntime
) -> tuple[dict[str, dict[str, str]], TestOutcome]:
    """Every agent's hidden tests of ``task``, in one run: (agent -> its test sources, the outcome)."""
    sources = {}
    for agent_id, seat in runtime.seats.items():
        role_task = task.requester if seat.role == "requester" else task.owner
        sources[agent_id] = pack.test_sources(role_task.hidden_tests)
    outcome = await runtime.sandbox.run_tests({k: v for tests in sources.values() for k, v in tests.items()})
    return sources, outcome


async def score_tasks(
    emit: Emit, runtime: EpisodeRuntime, sources: dict[str, dict[str, str]], outcome: TestOutcome
) -> dict[str, bool]:
    """The hidden tests' outcome, one ``SuiteRan`` per agent; agent -> whether its task passed."""
    passed: dict[str, bool] = {}
    for agent_id, seat in runtime.seats.items():
        mine = sources[agent_id]
        ok = tuple(t for t in outcome.passed if t.split("::", 1)[0] in mine)
        failed = tuple(f for f in outcome.failed if f.test.split("::", 1)[0] in mine)
        await emit(
            SuiteRan(
                suite="hidden",
                team=seat.team,
                episode=runtime.number,
                passed=ok,
                failed=failed,
                trigger=f"{agent_id}'s task",
            )
        )
        passed[agent_id] = bool(ok) and not failed
    return passed
