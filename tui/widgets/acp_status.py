"""An ACP agent's state, under its activity panel's header: its plan (each step's status), its
current tool call (the last one not finished, from the transient ``ToolCallUpdated``), and its
pending permission request with the keys that answer it (``a`` allows, ``x`` rejects the request
highlighted in the review queue; with norm permission_gate=human the agent waits on it, otherwise
the gate decides at once and the line shows until its ``ReviewDecided`` arrives)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from channel.events import (
    EpisodeStarted,
    Event,
    NormChanged,
    PermissionRequested,
    PlanStep,
    PlanUpdated,
    ReviewDecided,
    ToolCallUpdated,
)
from tui.colours import Line, render

PLAN_STEPS = 6
"""The plan's steps shown (the first not completed and those after it, when there are more)."""
MARKS = {"completed": ("✓", "success"), "in_progress": ("▸", "accent bold"), "pending": ("·", "dim")}


def _short(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


class ACPStatus(Static):
    """The plan, current tool call and pending permission of the ACP agent ``agent_id``."""

    DEFAULT_CSS = """
    ACPStatus { height: auto; max-height: 12; padding: 0 1; border-bottom: dashed $primary 40%; }
    """

    def __init__(self, agent_id: str, gate: str = "off") -> None:
        super().__init__("", classes="acp-status")
        self.agent_id = agent_id
        self.gate = gate
        self.plan: tuple[PlanStep, ...] = ()
        self.calls: dict[str, ToolCallUpdated] = {}
        """The calls begun and not finished, in the order they began."""
        self.asking: dict[str, PermissionRequested] = {}

    def on_mount(self) -> None:
        self.call_later(self.refresh_view)  # is_mounted turns True only after on_mount

    def reset(self) -> None:
        self.plan, self.calls, self.asking = (), {}, {}
        self.refresh_view()

    def apply(self, event: Event) -> bool:
        """Fold one event in; True when it changed what is shown."""
        if isinstance(event, NormChanged):
            changed = event.norms.permission_gate != self.gate
            self.gate = event.norms.permission_gate
            return changed and bool(self.asking)
        if isinstance(event, ReviewDecided):
            return self.asking.pop(event.request_id, None) is not None
        if isinstance(event, EpisodeStarted):
            self.plan, self.calls, self.asking = (), {}, {}
            return True
        if event.actor != self.agent_id:
            return False
        if isinstance(event, PlanUpdated):
            self.plan = event.steps
        elif isinstance(event, ToolCallUpdated):
            self.calls.pop(event.call_id, None)
            if event.status not in ("completed", "failed"):
                self.calls[event.call_id] = event
        elif isinstance(event, PermissionRequested):
            self.asking[event.request_id] = event
        else:
            return False
        return True

    def lines(self) -> list[Line]:
        out: list[Line] = []
        if self.plan:
            done = sum(s.status == "completed" for s in self.plan)
            out.append(((f"plan {done}/{len(self.plan)}", "bold"),))
            first = next((i for i, s in enumerate(self.plan) if s.status != "completed"), len(self.plan))
            start = max(0, min(first, len(self.plan) - PLAN_STEPS))
            for step in self.plan[start : start + PLAN_STEPS]:
                mark, spec = MARKS[step.status]
                faded = "dim" if step.status == "completed" else ""
                out.append(((f" {mark} ", spec), (_short(step.content, 70), faded)))
        if self.calls:
            call = list(self.calls.values())[-1]
            unnamed = [p for p in call.paths if p not in call.title]  # most titles name the path already
            where = f" {', '.join(unnamed)}" if unnamed else ""
            out.append((("⚙ now ", "accent bold"), (f"{call.tool_kind}: {_short(call.title, 60)}", ""),
                        (f"{where} ({call.status.replace('_', ' ')})", "dim")))
        for asked in self.asking.values():
            keys = "[a] allow · [x] reject (review queue)" if self.gate == "human" else f"gate {self.gate} decides"
            out.append((("⏳ permission? ", "warning bold"), (keys, "warning" if self.gate == "human" else "dim"),
                        (f" · {asked.tool_kind}: {_short(asked.title, 50)}", "bold")))
        return out

    def refresh_view(self) -> None:
        lines = self.lines()
        self.display = bool(lines)
        if self.is_mounted:
            self.update(Text("\n").join(render(self.app, line) for line in lines) if lines else "")
