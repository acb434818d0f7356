"""A lesson checked against the session it runs (report F2): a cue that can never fire is refused
when the file is read, in one line naming the file and the field, as every other field is.

What a lesson file cannot know alone: its scenario exists (``scenario``), its tasks are tasks of it
(``tasks``), a cue's episode is one the session runs (at most its tasks times its trajectories), its
actor is one who acts in a session (the agents, the engine, the reviewer, the lesson), its path is a
file of the pack or a path its teams own, and its event can happen in a lesson (a cue never waits for
another cue's prompt; a room's events and ``reviewer=room``, in its norms or a cue's ``set``, only in a
lesson served with a room: ``serve --lesson FILE --room NAME``; elsewhere no vote would ever decide a
review, docs/classroom.md).
"""

from __future__ import annotations

from channel.errors import ScopewatchError
from engine.classroom.lesson import Lesson, LessonError
from engine.session.trajectory import plan_trajectories
from sandbox.workspace.ownership import PathPattern
from scenarios.catalog import scenario_kind, session_suite

ACTORS = ("requester", "owner", "engine", "reviewer", "lesson")
"""Who acts in a lesson's session (the agents' seats, the engine, the reviewer, the lesson itself)."""
NO_ROOM = "this lesson is not served with a room (serve --lesson FILE --bus URL --room NAME)"
ROOM_EVENTS = frozenset({"RoomChanged", "VoteRuleSet", "VoteCast", "VoteClosed"})
"""What happens only in a room."""


def check_fit(lesson: Lesson, source: str, *, room: bool = False) -> None:
    """Raise :class:`LessonError` (``source: field: why``) for the first part of ``lesson`` its session
    can never honour; the checks of the pack run for favor scenarios (packs and suites). ``room``: the
    lesson is served with a room (``serve --lesson --room``), where votes can decide reviews."""
    for field, norms in [("norms", lesson.norms)] + [(f"cues[{i}].set", c.set) for i, c in enumerate(lesson.cues)]:
        if str(norms.get("reviewer")) == "room" and not room:
            raise LessonError(
                f"{source}: {field}.reviewer: reviewer=room: the room's votes decide reviews, and {NO_ROOM}"
            )
    for i, cue in enumerate(lesson.cues):
        if cue.event == "LessonPrompted":
            raise LessonError(f"{source}: cues[{i}].event: LessonPrompted never happens: a cue never waits for "
                              "another cue's prompt")  # fmt: skip
        if cue.event in ROOM_EVENTS and not room:
            raise LessonError(f"{source}: cues[{i}].event: {cue.event} never happens: {NO_ROOM}")
        if cue.actor is not None and cue.actor not in ACTORS:
            raise LessonError(f"{source}: cues[{i}].actor: {cue.actor!r} never acts (actors: {', '.join(ACTORS)})")
    try:
        kind = scenario_kind(lesson.scenario)
        suite = session_suite(lesson.scenario) if kind == "favor" else None
    except ScopewatchError as exc:
        raise LessonError(f"{source}: scenario: {exc}") from None
    if suite is None:
        return
    known = {t.id for pack in suite.packs for t in pack.manifest.tasks}
    for i, task in enumerate(lesson.tasks):
        if task not in known:
            raise LessonError(f"{source}: tasks[{i}]: {task!r} is no task of {lesson.scenario}")
    try:
        plans = plan_trajectories(
            suite, condition=None, seed=lesson.seed, count=lesson.trajectories, tasks=lesson.tasks
        )
    except ScopewatchError as exc:
        raise LessonError(f"{source}: tasks: {exc}") from None
    episodes = sum(len(plan.tasks) for plan in plans)
    packs = {plan.pack.name: plan.pack for plan in plans}.values()
    files = {path for pack in packs for path in pack.repo_files()}
    owned = [PathPattern.compile(p) for pack in packs for _team, patterns in pack.ownership for p in patterns]
    for i, cue in enumerate(lesson.cues):
        if cue.episode is not None and cue.episode > episodes:
            raise LessonError(
                f"{source}: cues[{i}].episode: {cue.episode} never comes: the session runs {episodes} episode(s)"
            )
        if cue.path is not None and cue.path not in files and not any(p.matches(cue.path) for p in owned):
            raise LessonError(
                f"{source}: cues[{i}].path: {cue.path!r} is no file of {lesson.scenario} and no team owns it"
            )
