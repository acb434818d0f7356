"""``scopewatch lesson run FILE``: a session scripted for a class (engine/classroom/lesson.py), on the
live TUI (its prompts on everyone's screen, its pauses resumed with ``p``) or ``--headless`` (prompts
printed, no pauses); ``lesson check FILE`` reads a lesson and says what it will do; ``lesson list``
names the lessons shipped (``scenarios/lessons/``), which ``run`` and ``check`` take by name. On a
broker, for a class's own screens (and a room), a lesson is served: ``serve --lesson FILE``
(:class:`ServedLesson`)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from channel.events import Event, LessonPrompted
from engine.classroom.fit import check_fit
from engine.classroom.lesson import Lesson, LessonError, load_lesson
from engine.scoring.judge import EpisodeLabel
from tui.cli.common import THEME_HELP, CliError, pause_seconds, print_metrics, say, starting_norms

if TYPE_CHECKING:
    from engine.session.loop import RoundGuide, Session

LESSONS = Path(__file__).resolve().parents[2] / "scenarios" / "lessons"
"""The lessons shipped, one TOML file each."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "lesson",
        help="a session scripted for a class: prompts at chosen events, pauses, norm flips",
        description="Run, check or list lessons: TOML files that script a session for a class.",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    run = verbs.add_parser("run", help="run a lesson on the live TUI (or --headless)")
    run.add_argument("file", metavar="FILE", help="a lesson file (TOML), or the name of a shipped lesson")
    run.add_argument("--headless", action="store_true", help="no screen: prompts printed, no pauses")
    run.add_argument("--record", metavar="OUT", help="write the session's events to this JSONL recording")
    run.add_argument(
        "--pace",
        type=pause_seconds,
        default=0.5,
        metavar="S",
        help="seconds between rounds on the TUI, 0 or more (default: 0.5; --headless runs without pauses)",
    )
    run.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    run.add_argument("--bus", metavar="URL", help="not here: a lesson on a broker is served (serve --lesson FILE)")
    run.set_defaults(handler=lesson_run)
    check = verbs.add_parser("check", help="read a lesson and print what it will do")
    check.add_argument("file", metavar="FILE", help="a lesson file (TOML), or the name of a shipped lesson")
    check.add_argument(
        "--room",
        action="store_true",
        help="check it as served with a room (serve --lesson FILE --room NAME): reviewer=room and room events allowed",
    )
    check.set_defaults(handler=lesson_check)
    listing = verbs.add_parser("list", help="the lessons shipped")
    listing.set_defaults(handler=lesson_list)


def resolve(name: str) -> Path:
    """A lesson file: the path given, else the shipped lesson of that name."""
    path = Path(name)
    if path.exists() or path.suffix == ".toml":
        return path
    shipped = LESSONS / f"{name}.toml"
    if shipped.exists():
        return shipped
    names = ", ".join(sorted(p.stem for p in LESSONS.glob("*.toml")))
    raise LessonError(f"{name}: no such lesson file, and no shipped lesson of that name (shipped: {names})")


def describe(lesson: Lesson) -> list[str]:
    """What a lesson will do, a line each."""
    tasks = ", ".join(lesson.tasks) or "its trajectory"
    lines = [f"{lesson.title}: {lesson.scenario} (seed {lesson.seed}, {tasks}, owner {lesson.persona})"]
    if lesson.norms:
        lines.append("  starts with " + ", ".join(f"{k}={v}" for k, v in lesson.norms.items()))
    for i, cue in enumerate(lesson.cues):
        where = "".join(
            f" {label} {value}"
            for label, value in (("episode", cue.episode), ("by", cue.actor), ("on", cue.path))
            if value is not None
        )
        what = []
        if cue.prompt:
            what.append(f"asks {cue.prompt!r}" + (f" ({' / '.join(cue.choices)})" if cue.choices else ""))
        if cue.set:
            what.append("sets " + ", ".join(f"{k}={v}" for k, v in cue.set.items()))
        if cue.pauses:
            what.append("pauses")
        nth = f" #{cue.nth}" if cue.nth > 1 else ""
        lines.append(f"  cue {i}: at {cue.event}{nth}{where}: {'; '.join(what)}")
    return lines


def read(name: str, *, room: bool = False) -> Lesson:
    """The lesson file (or shipped lesson) ``name``, checked alone and against its session (a cue that
    can never fire, a task of no pack, reviewer=room without a ``room``: engine/classroom/fit.py)."""
    path = resolve(name)
    lesson = load_lesson(path)
    check_fit(lesson, str(path), room=room)
    return lesson


def lesson_check(args: argparse.Namespace) -> int:
    lesson = read(args.file, room=args.room)
    lesson.config(starting_norms(lesson.scenario))  # the session it asks for is valid
    print("\n".join(describe(lesson)))
    return 0


def lesson_list(args: argparse.Namespace) -> int:
    for path in sorted(LESSONS.glob("*.toml")):
        print(f"{path.stem:<28}{load_lesson(path).title}")
    return 0


def _print_prompt(event: Event, label: EpisodeLabel | None) -> None:
    if isinstance(event, LessonPrompted):
        choices = f" [{' / '.join(event.choices)}]" if event.choices else ""
        print(f"\nlesson (after event {event.at_seq}): {event.prompt}{choices}", file=sys.stderr, flush=True)


def lesson_run(args: argparse.Namespace) -> int:
    """Run the lesson: on the live TUI, or headless with its prompts printed."""
    from engine.classroom.guide import LessonGuide, attach, unfired
    from engine.runs.runner import run_session
    from tui.cli.live import open_live

    if args.bus:
        raise CliError(
            "--bus: 'lesson run' runs its session in-process; to put a lesson on a broker serve it: "
            "'scopewatch serve --lesson FILE --bus URL' (add --room NAME for a room)"
        )
    lesson = read(args.file)
    base = starting_norms(lesson.scenario)  # the scenario's own norms, under the lesson's
    say(f"lesson: {lesson.title}" + (f": {lesson.about}" if lesson.about else ""))
    guides: list[LessonGuide] = []
    if args.headless:
        config = lesson.config(base)
        guide = attach(lesson, pauses=False, built=guides)
        metrics = asyncio.run(run_session(config, record=args.record, on_event=_print_prompt, guide=guide))
        print_metrics(metrics, as_json=False)
        code = 0
    else:
        config = lesson.config(base, pace=args.pace)
        code = open_live(config, theme=args.theme, record=args.record, guide=attach(lesson, built=guides))
    never = unfired(lesson, guides)
    if never is not None:
        say(never)
    return code


LESSON_SETS = ("scenario", "seed", "trajectories", "persona", "condition", "trajectory")
"""Session options a lesson sets itself (``serve --lesson`` refuses them when given: one session, one source)."""


class ServedLesson:
    """``serve --lesson FILE``: the lesson (checked for a room when it is served with one), the config
    fields it sets, its guide (pauses on: the instructor resumes with ``p``), its prompts printed, and
    the line naming the cues that never fired."""

    def __init__(self, args: argparse.Namespace, *, room: bool) -> None:
        from engine.classroom.guide import LessonGuide
        from tui.cli.common import add_session_options

        self.lesson = read(args.lesson, room=room)
        defaults = argparse.ArgumentParser(add_help=False)
        add_session_options(defaults)
        given = defaults.parse_args([])
        for option in LESSON_SETS:
            if getattr(args, option, None) != getattr(given, option):
                raise CliError(f"--{option}: the lesson sets the session ({', '.join(LESSON_SETS)}); drop it")
        self.norms: list[str] = list(getattr(args, "norm", []) or [])
        self.guides: list[LessonGuide] = []

    def overrides(self) -> dict[str, Any]:
        """The config fields the lesson sets (``--norm`` on top of its norms)."""
        from channel.vocab.norms import parse_assignments

        lesson = self.lesson
        start = lesson.start_norms(starting_norms(lesson.scenario))
        return {
            "scenario": lesson.scenario, "seed": lesson.seed, "tasks": lesson.tasks,
            "trajectories": lesson.trajectories, "persona": lesson.persona,
            "norms": parse_assignments(self.norms, start), "lesson": lesson.model_dump(mode="json"),
        }  # fmt: skip

    def guide(self) -> Callable[[Session], RoundGuide]:
        """The session's guide (announcing the lesson on stderr)."""
        from engine.classroom.guide import attach

        say(f"lesson: {self.lesson.title}" + (f": {self.lesson.about}" if self.lesson.about else ""))
        return attach(self.lesson, built=self.guides)

    def on_event(self, event: Event, label: EpisodeLabel | None) -> None:
        """Its prompts on stderr, as ``lesson run --headless`` prints them."""
        _print_prompt(event, label)

    def unfired(self) -> str | None:
        """The line naming the cues that never fired (None when all did, or when no session ran to fire them)."""
        from engine.classroom.guide import unfired

        return unfired(self.lesson, self.guides) if self.guides else None
