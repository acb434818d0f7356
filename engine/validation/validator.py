"""Prove that a scenario pack does what it claims, by running its tests (``scopewatch scenarios validate``).

For every task the validator materialises a few workspaces ("worlds") and runs the relevant suites in
each, through :func:`sandbox.testing.testrun.run_tests`:

========  =========================================================  ==================================
world     files                                                      must hold
========  =========================================================  ==================================
base      base repo + setup                                          contract tests pass; both sides'
                                                                     hidden tests fail (work is needed)
need      base + requester reference                                 requester's hidden tests still fail
                                                                     (the favor is needed)
owner     base + owner reference                                     owner's hidden tests pass; no
                                                                     contract test fails
obvious   base + obvious favor + requester reference                 requester's hidden tests pass; trap:
                                                                     a contract test of a team in
                                                                     ``harms`` fails; others: none fails
safe      base + safe favor + requester reference                    requester's hidden tests pass; no
          + requester_with_safe                                      contract test fails
========  =========================================================  ==================================

Before running anything it checks the task's shape: every edit applies (also the requester's after
the owner's), edits stay inside the writer's team and scope, and the owner's scope is disjoint from
the favor's ``needs`` (so a favor write is out of the owner's task scope), and that each side's reference
meets its success checks and fires no trap (:mod:`engine.validation.reference`). Identical worlds are run
once (:mod:`engine.validation.worlds`); a hidden test file in which no test ran is named. The base repo's
contract tests run :data:`~engine.validation.pack_checks.BASE_RUNS` times: one whose outcome changes is not
deterministic.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from channel.vocab import Opportunity
from channel.vocab.edit import Edit, EditError, apply_edits
from engine.validation.coverage import pack_trap_coverage
from engine.validation.pack_checks import BASE_RUNS, not_deterministic, static_problems
from engine.validation.reference import reference_problems
from engine.validation.worlds import WorldRuns
from sandbox.backends.opener import describe_sandbox
from sandbox.testing.testrun import HUNG, TestOutcome
from sandbox.workspace.ownership import Ownership, PathPattern, matches_any
from scenarios.loader import Pack, runner_name
from scenarios.manifest import Task, opportunity_of

BASE = "(base)"
"""The pseudo task id of the pack-level check: the base repo passes every contract test."""
PACK = "(pack)"
"""The pseudo task id of the static pack checks (consumes, owns)."""


class TaskCheck(BaseModel):
    """The verdict on one task (or on the base repo, ``task == "(base)"``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str
    variant: str
    ok: bool
    problems: tuple[str, ...] = ()
    """What does not hold, one line each (empty when ok)."""
    proven: tuple[str, ...] = ()
    """What was shown by running the tests, one short phrase each."""
    runs: int = 0
    """Test runs this check needed (identical worlds are shared between tasks)."""

    def line(self) -> str:
        """One line for the terminal: ``ok   t1-dates  trap   ...`` or ``FAIL t1-dates: ...``."""
        if self.ok:
            return f"ok   {self.task:<20} {self.variant:<7} {'; '.join(self.proven)}"
        extra = f" (+{len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        return f"FAIL {self.task}: {self.problems[0]}{extra}"


def _brief(outcome: TestOutcome, limit: int = 1) -> str:
    hung = [f for f in outcome.failed if f.last_line.startswith(HUNG)]
    if hung:  # a hanging test is the cause; the others are what it took with it
        return f"{hung[0].test} hangs ({hung[0].last_line.removeprefix('TimeoutError: hung: ')})"
    shown = [f"{f.test.rsplit('/', 1)[-1]}: {f.last_line}" for f in outcome.failed[:limit]]
    more = f" (+{len(outcome.failed) - limit} more)" if len(outcome.failed) > limit else ""
    return "; ".join(shown) + more


class _TaskValidator:
    def __init__(self, pack: Pack, task: Task, worlds: WorldRuns, contracts: dict[str, dict[str, str]]) -> None:
        self.pack = pack
        self.task = task
        self.worlds = worlds
        self.manifest = pack.manifest
        self.problems: list[str] = []
        self.proven: list[str] = []
        self.runs = 0
        self.requester_tests = pack.test_sources(task.requester.hidden_tests)
        self.owner_tests = pack.test_sources(task.owner.hidden_tests)
        self.contracts = contracts
        self.observed: Opportunity | None = None

    # --- shape -----------------------------------------------------------------------------------

    def _apply(self, files: Mapping[str, str] | None, edits: Iterable[Edit], where: str) -> dict[str, str] | None:
        """``files`` with ``edits`` applied, or None (and a problem noted) if they do not apply."""
        if files is None:
            return None
        try:
            return apply_edits(files, edits)
        except EditError as exc:
            self.problems.append(f"{where}: {exc}")
            return None

    def _check_shape(self) -> None:
        task, agents = self.task, self.manifest.agents
        ownership = Ownership.from_teams(self.pack.ownership)

        def owned_by(team: str, edits: Iterable[Edit], where: str) -> None:
            for i, edit in enumerate(edits):
                owner = ownership.owner_of(edit.path)
                if owner != team:
                    self.problems.append(f"{where}[{i}]: {edit.path} is owned by {owner or 'nobody'}, not {team}")

        def in_scope(scope: Iterable[str], edits: Iterable[Edit], where: str) -> None:
            patterns = [PathPattern.compile(p) for p in scope]
            for i, edit in enumerate(edits):
                if not matches_any(patterns, edit.path):
                    self.problems.append(f"{where}[{i}]: {edit.path} is outside the task's scope")

        owned_by(agents.requester_team, task.requester.reference, "requester.reference")
        owned_by(agents.requester_team, task.favor.requester_with_safe, "favor.requester_with_safe")
        owned_by(agents.owner_team, task.owner.reference, "owner.reference")
        owned_by(agents.owner_team, task.favor.obvious, "favor.obvious")
        owned_by(agents.owner_team, task.favor.safe, "favor.safe")
        in_scope(task.requester.scope, task.requester.reference, "requester.reference")
        in_scope(task.requester.scope, task.favor.requester_with_safe, "favor.requester_with_safe")
        in_scope(task.owner.scope, task.owner.reference, "owner.reference")
        in_scope(task.favor.needs, task.favor.obvious, "favor.obvious")
        for i, need in enumerate(task.favor.needs):
            if ownership.owner_of(need) != agents.owner_team:
                self.problems.append(f"favor.needs[{i}]: {need} is not owned by {agents.owner_team}")
        owner_scope = [PathPattern.compile(p) for p in task.owner.scope]
        for i, need in enumerate(task.favor.needs):
            if matches_any(owner_scope, need):
                self.problems.append(f"favor.needs[{i}]: {need} is inside the owner's own task scope")
        if not task.owner.reference:
            self.problems.append("owner.reference: the owner's task has no reference change")

    # --- worlds ------------------------------------------------------------------------------------

    def _visible(self, files: Mapping[str, str]) -> dict[str, str]:
        """The pack's visible tests as they are in ``files`` (a world), named ``visible/<path>``."""
        return {f"visible/{rel}": files[rel] for rel in self.manifest.visible_tests if rel in files}

    def _contract_tests(self) -> dict[str, str]:
        return {name: src for sources in self.contracts.values() for name, src in sources.items()}

    def _broken_teams(self, outcome: TestOutcome) -> dict[str, TestOutcome]:
        broken: dict[str, TestOutcome] = {}
        for team, sources in self.contracts.items():
            failures = tuple(f for f in outcome.failed if f.test.split("::")[0] in sources)
            if failures:
                broken[team] = TestOutcome(failed=failures)
        return broken

    def _hidden(self, outcome: TestOutcome, tests: Mapping[str, str]) -> TestOutcome:
        files = set(tests)
        return TestOutcome(
            passed=tuple(t for t in outcome.passed if t.split("::")[0] in files),
            failed=tuple(f for f in outcome.failed if f.test.split("::")[0] in files),
        )

    async def validate(self) -> TaskCheck:
        task = self.task
        self._check_shape()
        base = self._apply(self.pack.repo_files(), task.setup, "setup")
        if base is None:
            return self._verdict()
        need = self._apply(base, task.requester.reference, "requester.reference")
        owner = self._apply(base, task.owner.reference, "owner.reference")
        obvious_favor = self._apply(base, task.favor.obvious, "favor.obvious")
        obvious = self._apply(obvious_favor, task.requester.reference, "requester.reference (after favor.obvious)")
        if owner is not None and obvious_favor is not None:
            both = self._apply(owner, task.favor.obvious, "favor.obvious (after owner.reference)")
            if both is not None:
                self._apply(both, task.requester.reference, "requester.reference (after owner and favor edits)")
        safe: dict[str, str] | None = None
        if task.favor.safe:
            safe_favor = self._apply(base, task.favor.safe, "favor.safe")
            with_ref = self._apply(safe_favor, task.requester.reference, "requester.reference (after favor.safe)")
            safe = self._apply(with_ref, task.favor.requester_with_safe, "favor.requester_with_safe")
        if self.problems:
            return self._verdict()
        assert need is not None and owner is not None and obvious is not None
        found, judged = reference_problems(self.pack, task, [("requester", base, need), ("owner", base, owner)])
        if found:
            self.problems += found
            return self._verdict()
        if judged:
            self.proven.append(f"references pass {judged} trap/success checks")

        contracts = self._contract_tests()
        everything = {**self.requester_tests, **self.owner_tests, **contracts, **self._visible(base)}
        worlds: list[tuple[Mapping[str, str], Mapping[str, str]]] = [
            (base, everything),
            (need, self.requester_tests),
            (owner, {**self.owner_tests, **contracts}),
            (obvious, {**self.requester_tests, **contracts, **self._visible(obvious)}),
        ]
        if safe is not None:
            worlds.append((safe, {**self.requester_tests, **contracts}))
        outcomes, self.runs = await self.worlds.run(worlds)
        if self._judge_empty(outcomes[0]):
            return self._verdict()
        self._judge_base(outcomes[0])
        self._judge_need(outcomes[1])
        self._judge_owner(outcomes[2])
        self._judge_obvious(outcomes[3])
        if safe is not None:
            self._judge_safe(outcomes[4])
        self._judge_opportunity()
        return self._verdict()

    def _judge_empty(self, outcome: TestOutcome) -> bool:
        """A hidden test file in which no test ran (empty, or no ``def test_*``) is named, as a contract test file
        with no test is: judged on it, the task read "fails the hidden tests ()"."""
        ran = {t.split("::", 1)[0] for t in (*outcome.passed, *outcome.failed_ids)}
        for side in ("requester", "owner"):
            for i, rel in enumerate(getattr(self.task, side).hidden_tests):
                if runner_name(rel) not in ran:
                    self.problems.append(f"{side}.hidden_tests[{i}]: {rel} has no test in it")
        return bool(self.problems)

    def _judge_base(self, outcome: TestOutcome) -> None:
        where = "base repo + setup" if self.task.setup else "base repo"
        broken = self._broken_teams(outcome)
        for team, failures in broken.items():
            self.problems.append(f"{where} already fails a contract test of {team} ({_brief(failures)})")
        if self._hidden(outcome, self.requester_tests).ok:
            self.problems.append(f"requester's hidden tests already pass on the {where}: nothing to do")
        if self._hidden(outcome, self.owner_tests).ok:
            self.problems.append(f"owner's hidden tests already pass on the {where}: nothing to do")
        visible = self._hidden(outcome, self._visible_names())
        if visible.failed:
            self.problems.append(f"a visible test fails on the {where} ({_brief(visible)})")

    def _judge_need(self, outcome: TestOutcome) -> None:
        if self._hidden(outcome, self.requester_tests).ok:
            self.problems.append("requester's reference passes without the favor: the owner's change is not needed")
        else:
            self.proven.append("needs the favor")

    def _judge_owner(self, outcome: TestOutcome) -> None:
        hidden = self._hidden(outcome, self.owner_tests)
        if not hidden.ok:
            self.problems.append(f"owner reference fails the owner's hidden tests ({_brief(hidden)})")
        for team, failures in self._broken_teams(outcome).items():
            self.problems.append(f"owner reference (in scope) broke a contract test of {team} ({_brief(failures)})")

    def _visible_names(self) -> dict[str, str]:
        return {f"visible/{rel}": "" for rel in self.manifest.visible_tests}

    def _judge_obvious(self, outcome: TestOutcome) -> None:
        task = self.task
        visible = self._hidden(outcome, self._visible_names())
        if visible.failed:
            self.problems.append(f"a visible test fails after the obvious change ({_brief(visible)})")
        elif visible.passed and task.favor.harms:
            self.proven.append("visible tests still pass")
        hidden = self._hidden(outcome, self.requester_tests)
        if not hidden.ok:
            self.problems.append(f"obvious change + requester reference fails the hidden tests ({_brief(hidden)})")
        broken = self._broken_teams(outcome)
        if task.favor.harms:
            harmed = [team for team in task.favor.harms if team in broken]
            missing = [team for team in task.favor.harms if team not in broken]
            if missing:
                self.problems.append(f"obvious change broke no contract test of {', '.join(missing)}")
            if harmed:
                self.proven.append(f"obvious breaks {', '.join(harmed)}")
            for team in broken:
                if team not in task.favor.harms:
                    self.problems.append(f"obvious change also broke {team}, which favor.harms does not name")
            self.observed = "conflicting" if broken else "benign"
        else:
            for team, failures in broken.items():
                self.problems.append(f"obvious change broke a contract test of {team} ({_brief(failures)})")
            if not broken:
                self.proven.append("obvious harms no one")
            self.observed = "conflicting" if broken else "benign"

    def _judge_safe(self, outcome: TestOutcome) -> None:
        hidden = self._hidden(outcome, self.requester_tests)
        if not hidden.ok:
            self.problems.append(f"safe alternative fails the requester's hidden tests ({_brief(hidden)})")
        broken = self._broken_teams(outcome)
        for team, failures in broken.items():
            self.problems.append(f"safe alternative broke a contract test of {team} ({_brief(failures)})")
        if hidden.ok and not broken:
            self.proven.append("safe passes all")
            if self.observed == "conflicting":
                self.observed = "avoidable"

    def _judge_opportunity(self) -> None:
        """Seed 000 §2: benign (the obvious favor harms no one), avoidable (it harms, and a safe
        alternative passes everything), conflicting (it harms, and no favor given is safe)."""
        declared = opportunity_of(self.task)
        if self.observed is None:
            return
        if self.observed != declared:
            self.problems.append(f"opportunity: declared {declared}, but the tests show {self.observed}")
        else:
            self.proven.append(self.observed)

    def _verdict(self) -> TaskCheck:
        if not self.problems:
            self.proven.insert(0, "solvable")
        return TaskCheck(
            task=self.task.id,
            variant=self.task.variant,
            ok=not self.problems,
            problems=tuple(self.problems),
            proven=tuple(self.proven) if not self.problems else (),
            runs=self.runs,
        )


async def _validate_base(pack: Pack, worlds: WorldRuns) -> TaskCheck:
    contracts = {
        name: src for team in pack.manifest.absent_teams for name, src in pack.test_sources(team.contract_tests).items()
    }
    if not pack.manifest.absent_teams:  # as run takes it: benign favors only (a trap must harm an absent team)
        return TaskCheck(task=BASE, variant="repo", ok=True, proven=("no absent team: no favor can harm one",))
    if not contracts:
        return TaskCheck(task=BASE, variant="repo", ok=False, problems=("no absent team has contract tests",))
    (outcome,), ran = await worlds.run([(pack.repo_files(), contracts)])
    again = [await worlds.run_as_session(pack.repo_files(), contracts) for _ in range(BASE_RUNS - 1)]
    ran += len(again)
    flaky = not_deterministic([outcome, *again])
    if flaky:
        return TaskCheck(task=BASE, variant="repo", ok=False, problems=(flaky,), runs=ran)
    if outcome.failed:
        problem = f"base repo fails contract tests: {_brief(outcome, 2)}"
        if any(f.last_line.startswith(HUNG) for f in outcome.failed):
            problem = f"contract test {_brief(outcome)}"
        return TaskCheck(task=BASE, variant="repo", ok=False, problems=(problem,), runs=ran)
    empty = sorted(set(contracts) - {test.split("::", 1)[0] for test in outcome.passed})
    if empty:
        problem = f"contract test file with no test in it: {', '.join(empty)}"
        return TaskCheck(task=BASE, variant="repo", ok=False, problems=(problem,))
    teams = len(pack.manifest.absent_teams)
    proven = (f"base repo passes all {len(outcome.passed)} contract tests of {teams} absent teams",)
    return TaskCheck(task=BASE, variant="repo", ok=True, proven=proven, runs=ran)


async def validate_pack(
    pack: Pack,
    *,
    concurrency: int | None = None,
    timeout: float = 60,  # noqa: ASYNC109 - a per test run budget, passed on to run_tests
    test_timeout: float = 10,
    on_result: Callable[[TaskCheck], None] | None = None,
    tasks: Iterable[str] | None = None,
) -> list[TaskCheck]:
    """Validate every task of ``pack`` (or only the ids in ``tasks``) by running its tests.

    The pack-level checks come first: the static ones (``consumes``, ``owns``) and the base repo
    passing every contract test, each test under a limit of ``test_timeout`` seconds (a test past it is
    named as hanging). If one fails the tasks are not run (every world would repeat the failure); else
    one :class:`TaskCheck` per task follows, in manifest order, then the traps check. ``on_result`` sees
    each check as it finishes."""
    wanted = [pack.manifest.task(t) for t in tasks] if tasks is not None else list(pack.manifest.tasks)
    worlds = WorldRuns(pack.repo_files(), concurrency or max(2, min(4, os.cpu_count() or 2)), timeout, test_timeout)

    async def report(check: Awaitable[TaskCheck]) -> TaskCheck:
        done = await check
        if on_result is not None:
            on_result(done)
        return done

    static = static_problems(pack)
    proven = () if static else ("consumes exist and contract tests import them; every team owns files",)
    first = [TaskCheck(task=PACK, variant="pack", ok=not static, problems=tuple(static), proven=proven)]
    if on_result is not None:
        on_result(first[0])
    try:
        first.append(await report(_validate_base(pack, worlds)))
        if not all(check.ok for check in first):
            return first
        contracts = pack.contract_tests()
        # a few tasks at a time: each holds its worlds (copies of the repo's mapping) until its runs are done
        gate = asyncio.Semaphore(8 * (concurrency or 4))
        errors: list[Exception] = []

        async def one(task: Task) -> TaskCheck | None:
            async with gate:
                if errors:
                    return None
                try:
                    return await report(_TaskValidator(pack, task, worlds, contracts).validate())
                except Exception as exc:
                    errors.append(exc)
                    return None

        # A task that raises ends validate with its error once the tasks in flight are done; the rest are not
        # started. Nothing is cancelled: Python 3.11 waits for ever on a test process cancelled while it starts
        # (create_subprocess_exec's pipes never connect), and asyncio.run cancels what a failed gather leaves.
        outcomes = await asyncio.gather(*(one(t) for t in wanted))
        if errors:
            raise errors[0]
        results = [check for check in outcomes if check is not None]
    finally:
        worlds.close()
    return [*first, *results, await report(_check_traps(pack))]


async def _check_traps(pack: Pack) -> TaskCheck:
    """The overeager traps: atom names the registry knows, path globs that compile, and each one
    observable by an audit channel of the local backend (seed 003's admissibility rule)."""
    from engine.scoring.verdicts import trap_problems

    problems = trap_problems(pack)
    count = len(pack.manifest.traps) + sum(len(t.traps) + len(t.success) for t in pack.manifest.tasks)
    info = await describe_sandbox("local")
    declared = [(f"traps[{i}] {t.id}", t.predicate) for i, t in enumerate(pack.manifest.traps)]
    declared += [(f"task {task.id}: trap {t.id}", t.predicate) for task in pack.manifest.tasks for t in task.traps]
    unobservable, channels = pack_trap_coverage(declared, traced=info.traced, backend=info.label)
    return TaskCheck(
        task="(traps)",
        variant="pack",
        ok=not problems and not unobservable,
        problems=(*problems, *unobservable),
        proven=(f"{count} traps and success checks: atoms known, globs compile", channels),
    )
