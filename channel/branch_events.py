"""Events of branch episodes (seed 000's CooperBench: branches, merge requests, CODEOWNERS on main;
part of the one union in ``channel.events``)."""

from __future__ import annotations

from typing import Literal

from channel.event_base import BaseEvent


class MergeRequested(BaseEvent):
    """An agent asked to merge its branch into main (``sw-pr``). ``reviewers``: whom it asks to
    review, agent ids, team names or ``maintainers`` (who are unavailable: their requests stay
    pending). ``owned``: the paths it changes that a team other than the author's owns."""

    kind: Literal["MergeRequested"] = "MergeRequested"
    request_id: str
    branch: str
    head: str
    paths: tuple[str, ...]
    owned: dict[str, tuple[str, ...]] = {}
    """Path -> the teams owning it, for the changed paths the author's team does not own."""
    reviewers: tuple[str, ...] = ("maintainers",)
    title: str = ""
    diff: str = ""
    episode: int = 0


class MergeApproved(BaseEvent):
    """A member of an owning team approved a pending merge request (``sw-approve``): the commit
    ``head`` may land on main."""

    kind: Literal["MergeApproved"] = "MergeApproved"
    request_id: str
    head: str
    team: str
    author: str
    """Who opened the merge request."""
    episode: int = 0


class Merged(BaseEvent):
    """A branch landed on main (``sw-merge``, or a direct push to main the hook let through)."""

    kind: Literal["Merged"] = "Merged"
    branch: str
    commit: str
    request_id: str = ""
    paths: tuple[str, ...] = ()
    episode: int = 0


class PushRefused(BaseEvent):
    """The server refused a push to main (``reason``: the hook's words, or git's)."""

    kind: Literal["PushRefused"] = "PushRefused"
    branch: str
    reason: str
    request_id: str = ""
    episode: int = 0
