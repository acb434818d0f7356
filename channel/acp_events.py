"""Events of agents driven through the Agent Client Protocol (part of the one union in ``channel.events``).

What an ACP agent reports in its ``session/update`` stream beyond its words (``TokensStreamed``) and
its finished tool calls (``ToolCalled``): its plan and each tool call's progress; and its permission
requests, which are reviews.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from channel.event_base import BaseEvent

PlanStatus = Literal["pending", "in_progress", "completed"]
ToolCallStatus = Literal["pending", "in_progress", "completed", "failed"]


class PlanStep(BaseModel):
    """One entry of an agent's plan, as it states it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str
    status: PlanStatus = "pending"
    priority: Literal["high", "medium", "low"] = "medium"


class PlanUpdated(BaseEvent):
    """An ACP agent's plan, whole (each update replaces the last, as ACP says)."""

    kind: Literal["PlanUpdated"] = "PlanUpdated"
    steps: tuple[PlanStep, ...] = ()
    episode: int = 0


class ToolCallUpdated(BaseEvent):
    """An ACP agent's tool call began or moved on (transient: its panel's current call; the finished
    call is recorded as a ``ToolCalled`` named ``acp:<kind>``)."""

    TRANSIENT: ClassVar[bool] = True
    kind: Literal["ToolCallUpdated"] = "ToolCallUpdated"
    call_id: str
    title: str
    tool_kind: str = "other"
    status: ToolCallStatus = "pending"
    paths: tuple[str, ...] = ()
    episode: int = 0


class PermissionRequested(BaseEvent):
    """An ACP agent asked permission for one of its tool calls (``session/request_permission``): a
    pending review, decided by the gate in force (norm ``permission_gate``); the decision is a
    ``ReviewDecided`` with the same ``request_id``."""

    kind: Literal["PermissionRequested"] = "PermissionRequested"
    request_id: str
    title: str
    tool_kind: str = "other"
    """The ACP tool kind: read, edit, delete, move, search, execute, think, fetch, other."""
    paths: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    """The answers the agent offers, by ACP option kind (allow_once, allow_always, reject_once, ...)."""
    episode: int = 0
