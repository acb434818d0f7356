"""A lesson file: a session scripted for a class (``scopewatch lesson run FILE``).

A lesson is TOML: the session to run (scenario, seed, tasks, persona, the norms it starts from) and
its cues, in order. A cue waits for an event (its kind, and optionally its episode, actor and path;
the ``nth`` such event) and then does what it says at the next round boundary: show a prompt to
everyone watching (with the answers it offers, ``choices``), pause the session there, and flip
norms (``set``). A room's vote on a prompt's choices is to plug in here: ``choices`` are what it
votes on, and ``LessonPrompted`` names the cue a vote answers.

Every field is checked when the file is read; a bad one is one line naming the file and the field
(``lesson.toml: cues[1].set.admin_only: ...``), never a traceback.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from channel.errors import ScopewatchError
from channel.events import EVENT_TYPES, Event
from channel.vocab.config import SessionConfig
from channel.vocab.norms import NormError, Norms
from channel.vocab.recorded import NormValue
from engine.agents.scripted import PERSONAS

EVENT_KINDS = tuple(sorted(t.model_fields["kind"].default for t in EVENT_TYPES))
"""The event kinds a cue can wait for."""


class LessonError(ScopewatchError):
    """A lesson file that cannot be used; the message names the file and the field."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Cue(_Model):
    """Wait for the ``nth`` event matching ``event`` (and the filters given), then prompt, pause, flip."""

    event: str
    """An event kind: ``ReviewRequested``, ``HarmDetected``, ``EpisodeStarted``, ..."""
    episode: int | None = Field(None, ge=1)
    actor: str | None = None
    path: str | None = None
    """The event's ``path`` (a file written, a harm's causal change, ...)."""
    nth: int = Field(1, ge=1)
    prompt: str = ""
    """Shown to everyone watching when the cue comes."""
    choices: tuple[str, ...] = ()
    """The answers the prompt offers (``["approve", "reject"]``); a room will vote on them."""
    pause: bool | None = None
    """Pause the session at the cue (default: when there is a prompt); ``p`` resumes it."""
    set: dict[str, NormValue] = Field(default_factory=dict)
    """Norms flipped at the cue (key -> value, as in ``--norm``), applied from the next round (a cue on
    ``EpisodeEnded``: before the next episode starts)."""

    @field_validator("event")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        if kind not in EVENT_KINDS:
            raise ValueError(f"{kind!r} is no event kind (choose from {', '.join(EVENT_KINDS)})")
        return kind

    @model_validator(mode="after")
    def _does_something(self) -> Cue:
        fields = next(t.model_fields for t in EVENT_TYPES if t.model_fields["kind"].default == self.event)
        for name in ("episode", "path"):
            if getattr(self, name) is not None and name not in fields:
                raise ValueError(f"{name}: {self.event} events carry no {name}")
        if not self.prompt and not self.set and not self.pause:
            raise ValueError("a cue needs a prompt, a pause or norms to set")
        if self.choices and not self.prompt:
            raise ValueError("choices need a prompt to answer")
        return self

    @property
    def pauses(self) -> bool:
        return bool(self.prompt) if self.pause is None else self.pause

    def matches(self, event: Event) -> bool:
        """Whether ``event`` is one this cue waits for (``nth`` counts them)."""
        if event.kind != self.event:
            return False
        if self.episode is not None and getattr(event, "episode", None) != self.episode:
            return False
        if self.actor is not None and event.actor != self.actor:
            return False
        return self.path is None or getattr(event, "path", None) == self.path


class Lesson(_Model):
    """A session scripted for a class."""

    title: str
    about: str = ""
    """What the class will see and talk about (shown when the lesson starts)."""
    scenario: str = "favorbench-mini"
    seed: int = 1
    tasks: tuple[str, ...] = ()
    """Task ids to run, in order (empty: the scenario's trajectory)."""
    trajectories: int = Field(1, ge=1)
    """Times the tasks run (an audit scenario runs once per trajectory)."""
    persona: str = "mixed"
    """The scripted owner's persona (mixed, cautious, helpful, careful, overeager)."""
    norms: dict[str, NormValue] = Field(default_factory=dict)
    """The norms the session starts from, over the scenario's and scopewatch's defaults."""
    cues: tuple[Cue, ...] = ()

    @field_validator("persona")
    @classmethod
    def _known_persona(cls, persona: str) -> str:
        if persona not in PERSONAS:
            raise ValueError(f"unknown persona {persona!r} (choose from {', '.join(PERSONAS)})")
        return persona

    def start_norms(self, base: Norms | None = None) -> Norms:
        """The norms the session starts from: ``base`` (the scenario's own, else scopewatch's
        defaults) with the lesson's on top."""
        norms = base or Norms()
        for key, value in self.norms.items():
            norms = norms.with_value(key, value)
        return norms

    def config(self, base: Norms | None = None, **options: Any) -> SessionConfig:
        """The session the lesson runs, from the norms ``base`` (the scenario's); ``options``: run
        settings such as ``pace``."""
        return SessionConfig(
            scenario=self.scenario,
            seed=self.seed,
            tasks=self.tasks,
            trajectories=self.trajectories,
            persona=self.persona,
            norms=self.start_norms(base),
            lesson=self.model_dump(mode="json"),
            **options,
        )


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse_lesson(data: dict[str, Any], source: str) -> Lesson:
    """A lesson from parsed TOML; ``source`` names the file in the error."""
    try:
        lesson = Lesson.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = _loc(tuple(p for p in error["loc"] if p not in ("function-after",)))
        message = str(error["msg"]).removeprefix("Value error, ")
        field, sep, rest = message.partition(": ")
        if sep and field in Cue.model_fields:  # a cross-field check names its field first
            where, message = f"{where}.{field}", rest
        raise LessonError(f"{source}: {where or 'lesson'}: {message}") from None
    for field, norms in [("norms", lesson.norms)] + [(f"cues[{i}].set", c.set) for i, c in enumerate(lesson.cues)]:
        for key, value in norms.items():
            try:
                Norms().with_value(key, value)
            except NormError as exc:
                raise LessonError(f"{source}: {field}.{key}: {exc}") from None
    return lesson


def load_lesson(path: str | Path) -> Lesson:
    """Read and check a lesson file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LessonError(f"{path}: cannot read the lesson ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{path}: not TOML: {exc}") from None
    lesson = parse_lesson(data, str(path))
    beside = _beside(path, lesson.scenario)
    return lesson if beside is None else lesson.model_copy(update={"scenario": beside})


def _beside(path: Path, scenario: str) -> str | None:
    """A relative ``scenario`` naming a pack or suite beside the lesson file, as the path to it (a pack's own paths
    are relative to its manifest's folder; ``./mypack`` was looked up in the shell's folder, so a lesson handed out
    with its pack worked only when started from its own folder); None when there is none there (a built-in name,
    or a path from the shell's folder, as before)."""
    if not scenario.strip() or Path(scenario).is_absolute() or scenario.startswith("~"):
        return None
    candidate = path.parent / scenario
    if not candidate.exists() or candidate.resolve() == Path(scenario).resolve():
        return None
    return os.path.normpath(candidate)
