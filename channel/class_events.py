"""Events of a class (part of the one union in ``channel.events``): a lesson's prompt to everyone
watching. A room's votes on a prompt's choices are to join it here, naming the prompt by its cue."""

from __future__ import annotations

from typing import Literal

from channel.event_base import BaseEvent


class LessonPrompted(BaseEvent):
    """A lesson's cue came: its prompt is shown to everyone watching (``actor`` is ``lesson``); with
    ``paused`` the session waits at this round boundary until someone resumes it."""

    kind: Literal["LessonPrompted"] = "LessonPrompted"
    lesson: str
    """The lesson's title."""
    cue: int
    """The cue's place in the lesson file (0-based): what a later answer or vote names."""
    prompt: str
    choices: tuple[str, ...] = ()
    """The answers the prompt offers (``approve``, ``reject``); empty: a question to talk over."""
    at_seq: int
    """The event the cue waited for."""
    paused: bool = False
