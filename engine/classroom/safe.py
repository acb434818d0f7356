"""What a harm alert teaches: the harmful change, the absent team's broken contract test, and the
instance's validated safe alternative beside it, with the diff from the harmful file to the safe one.

The recording holds the harm (its diff, the failing test, its last line); the scenario pack holds
the rest: the file as the episode started, the contract test's source and the task's safe
alternative (``favor.safe``), which the validator proves keeps every contract test green and the
requester's hidden tests passing (:func:`validate_safe` runs that proof for the one task). Whatever
cannot be found (a pack not installed here, a task without a safe alternative, a harm on another
file) is said in ``note``, never guessed.
"""

from __future__ import annotations

import ast
import difflib

from pydantic import BaseModel, ConfigDict

from channel.events import HarmDetected
from channel.vocab.edit import EditError, apply_edits
from engine.classroom.patch import apply_unified
from engine.validation.validator import TaskCheck, validate_pack
from scenarios.loader import Pack, ScenarioError, load_pack
from scenarios.manifest import Task

TEST_LINES = 12
"""The contract test's last lines shown (its assertion is at the end)."""
FAILURE_LINES = 8


class SafeBeside(BaseModel):
    """A harm beside what would have avoided it."""

    model_config = ConfigDict(frozen=True)

    harm: HarmDetected
    scenario: str | None = None
    task_id: str | None = None
    test_tail: str = ""
    """The last lines of the broken contract test's source (as the pack has it)."""
    failure_tail: str = ""
    """The last lines of the failure (its log when recorded, else its error and last line)."""
    safe_diff: str = ""
    """The safe alternative, as a diff against the file as the episode started."""
    harm_to_safe: str = ""
    """From the harmful file to the safe one: what the owner should have written instead."""
    note: str = ""
    """Why something is missing (empty when everything was found)."""


def _unified(path: str, a: str, b: str, left: str, right: str) -> str:
    return "".join(
        difflib.unified_diff(
            a.splitlines(keepends=True), b.splitlines(keepends=True), f"{left}/{path}", f"{right}/{path}"
        )
    )


def contract_tail(source: str, test_id: str, lines: int = TEST_LINES) -> str:
    """The last ``lines`` lines of the test function ``test_id`` names (``file::name``) in ``source``
    (the file's last lines when the function is not found)."""
    name = test_id.split("::")[-1].split("[", 1)[0]
    body = source.splitlines()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        tree = None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            body = body[node.lineno - 1 : node.end_lineno]
            break
    return "\n".join(body[-lines:])


def failure_tail(harm: HarmDetected, lines: int = FAILURE_LINES) -> str:
    """The failure's last lines: its log when recorded, else the error line and the last line."""
    if harm.log.strip():
        return "\n".join(harm.log.strip().splitlines()[-lines:])
    return "\n".join(line for line in (harm.error_line, harm.last_line) if line)


def safe_beside(harm: HarmDetected, scenario: str | None, task_id: str | None) -> SafeBeside:
    """The harm beside its contract test and the safe alternative of ``task_id`` in pack ``scenario``
    (the pack and task the harm's episode ran)."""
    found = SafeBeside(harm=harm, scenario=scenario, task_id=task_id, failure_tail=failure_tail(harm))
    if scenario is None or task_id is None:
        return found.model_copy(update={"note": "the recording does not say which scenario and task this episode ran"})
    try:
        pack = load_pack(scenario)
        task = pack.task(task_id)
    except (ScenarioError, KeyError, ValueError) as exc:
        return found.model_copy(update={"note": f"scenario {scenario!r}, task {task_id!r} not found here: {exc}"})
    return _with_pack(found, pack, harm, task)


def _with_pack(found: SafeBeside, pack: Pack, harm: HarmDetected, task: Task) -> SafeBeside:
    notes: list[str] = []
    tests = pack.test_sources(
        t for team in pack.manifest.absent_teams if team.name == harm.absent_team for t in team.contract_tests
    )
    source = tests.get(harm.test.split("::", 1)[0])
    tail = contract_tail(source, harm.test) if source is not None else ""
    if source is None:
        notes.append(f"{harm.test}: not among {harm.absent_team}'s contract tests in the pack")
    update: dict[str, object] = {"test_tail": tail}
    edits = [e for e in task.favor.safe if e.path == harm.path]
    if not task.favor.safe:
        notes.append(f"task {task.id} ({task.variant}) has no safe alternative: every favor here harms")
    elif not edits:
        touched = ", ".join(sorted({e.path for e in task.favor.safe}))
        notes.append(f"the safe alternative changes {touched}, not {harm.path}")
    else:
        start = pack.workspace_files(task)
        before = start.get(harm.path, "")
        try:
            safe = apply_edits(start, edits)[harm.path]
        except EditError as exc:
            safe = None
            notes.append(f"the safe alternative does not apply to the episode's start: {exc}")
        if safe is not None:
            update["safe_diff"] = _unified(harm.path, before, safe, "a", "b")
            harmful = apply_unified(before, harm.diff)
            if harmful is None:
                notes.append("the harmful diff does not apply to the file as the pack has it: no diff between them")
            else:
                update["harm_to_safe"] = _unified(harm.path, harmful, safe, "harmful", "safe")
    update["note"] = "; ".join(notes)
    return found.model_copy(update=update)


async def validate_safe(scenario: str, task_id: str) -> TaskCheck:
    """Prove the task's safe alternative again by running its tests (the validator's worlds for the
    task): ``ok`` with ``proven`` naming ``safe passes all``, or the problems found."""
    pack = load_pack(scenario)
    checks = await validate_pack(pack, tasks=[task_id])
    mine = [c for c in checks if c.task == task_id]
    return mine[0] if mine else next(c for c in checks if not c.ok)
