"""The session a config asks for: the one round loop with the episode kind its scenario names.

A scenario that names a shipped audit scenario runs audit episodes (seed 003; the persona picks the
profile: cautious, overeager, else moderate; deterministic gate mode, so a demo shows the same run
every time); ``cooperbench`` runs branch episodes of the built CooperBench pack; any other
scenario (a pack's folder or name, a suite such as favorbench) runs favor
episodes. ``run``, ``serve``, ``fork``, ``--jobs``/Ray and the TUI all open sessions here, so each works
on every kind the same way.

A fork of a lesson's recording runs the lesson again beside the fork's re-execution (:class:`ForkedLesson`):
its cues are as deterministic as the scripted agents, so the re-run reproduces the parent's prompts and norm
flips up to the fork point, and after it the lesson's remaining cues act on the fork's own events.
"""

from __future__ import annotations

from collections.abc import Callable

from channel.bus import Bus
from channel.events import Event
from channel.recorder import Recorder
from channel.vocab.config import SessionConfig
from engine.branch.episodes import BranchEpisodes
from engine.classroom.guide import LessonGuide
from engine.classroom.lesson import Lesson
from engine.fork.guide import ForkGuide
from engine.fork.plan import ForkPlan
from engine.overeager.episodes import PERSONA_PROFILE, AuditEpisodes
from engine.session.favor import FavorEpisodes
from engine.session.kind import EpisodeKind
from engine.session.loop import RoundGuide, Session
from scenarios.catalog import scenario_kind, session_suite
from scenarios.cooperbench.build import load_pack
from scenarios.overeager.benchmark import audit_scenario
from scenarios.suite import Suite


def episode_kind(config: SessionConfig, suites: Callable[[str], Suite] = session_suite) -> EpisodeKind:
    """The episode kind of ``config.scenario`` (see the module docstring); a favor scenario's suite
    from ``suites`` (a batch's worker loads it once for all its units: engine/runs/batch.py)."""
    kind = scenario_kind(config.scenario)
    if kind == "audit":
        profile = PERSONA_PROFILE.get(config.persona, "moderate")
        return AuditEpisodes([audit_scenario(config.scenario)], profile=profile, mode="gate")
    if kind == "branch":
        return BranchEpisodes(load_pack())
    return FavorEpisodes(suites(config.scenario))


def open_session(
    config: SessionConfig,
    bus: Bus,
    *,
    recorder: Recorder | None = None,
    session_id: str | None = None,
    fork: ForkPlan | None = None,
    guide: Callable[[Session], RoundGuide] | None = None,
    suites: Callable[[str], Suite] = session_suite,
) -> Session:
    """The session ``config`` asks for, on ``bus``; with ``fork``, as a fork of a recording
    (engine/fork/plan.py); with ``guide``, steered by it (a lesson's, engine/classroom/guide.py)."""
    if fork is not None:
        guide = (
            fork.attach if config.lesson is None else ForkedLesson.attach(fork, Lesson.model_validate(config.lesson))
        )
    return Session(config, bus, episode_kind(config, suites), recorder=recorder, session_id=session_id, guide=guide)


class ForkedLesson:
    """A fork of a lesson's recording: the fork's guide (its re-execution checked, then its changes) and the
    lesson's (its cues), at every round boundary in that order. The lesson pauses only after the fork point, and
    only on the TUI (a re-run up to it goes on unattended, as the headless parent's did)."""

    def __init__(self, fork: ForkGuide, lesson: LessonGuide, *, pauses: bool) -> None:
        self.fork, self.lesson, self.pauses = fork, lesson, pauses
        lesson.pauses = False

    @classmethod
    def attach(cls, plan: ForkPlan, lesson: Lesson) -> Callable[[Session], ForkedLesson]:
        def build(session: Session) -> ForkedLesson:
            return cls(plan.attach(session), LessonGuide(lesson, session, pauses=False), pauses=not plan.headless)

        return build

    def opening(self) -> Event | None:
        return self.fork.opening()

    async def boundary(self, last_seq: int) -> None:
        await self.fork.boundary(last_seq)
        self.lesson.pauses = self.pauses and self.fork.applied
        await self.lesson.boundary(last_seq)

    def finish(self) -> None:
        self.fork.finish()
