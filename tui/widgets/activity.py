"""Each active agent's activity: tool calls, shell commands from the shim, diffs of its writes,
refusals, CI feedback, and its turn budget left; and, while a model replies, its tokens as they
arrive (transient ``TokensStreamed`` events, in a line under the header that the call's
``ModelCalled`` replaces with the final text).

The programs one agent command ran and the sensitive files they read (``ShellCommandRan`` and
``SensitiveRead`` with the command's number) arrive before the command's ``run_shell`` tool call: they
are held and shown folded under it, indented: every atom and read on its own line, the other programs
on one line (``+ 3 more programs: ls, sh, git-receive-pack``). An ACP agent's panel also shows its
plan, current tool call and pending permission under its header (tui/widgets/acp_status.py)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from channel.events import (
    AgentErrored,
    AgentFinished,
    AgentInfo,
    CIFeedbackSent,
    EpisodeStarted,
    Event,
    FileChanged,
    HarmDetected,
    ModelCalled,
    SensitiveRead,
    SessionStarted,
    ShellCommandRan,
    TokensStreamed,
    ToolCalled,
    TrapFired,
    TurnStarted,
    VerdictReached,
    WriteRefused,
)
from tui.colours import Line, diff_lines, render, team_variables
from tui.widgets.acp_status import ACPStatus
from tui.widgets.event_log import EventLog

DIFF_LINES = 8
FOLDED_NAMES = 4
"""Names of the unclassified programs a folded command line shows."""
STREAM_CHARS = 280
"""The tail of a reply being streamed that the panel shows (about three lines of a narrow panel)."""


def _short(value: Any, width: int = 60) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _tool_args(args: dict[str, Any]) -> str:
    for key in ("path", "command", "to", "request_id", "text"):
        if key in args:
            return _short(args[key], 50)
    return ""


class AgentPanel(Vertical):
    """One agent: a header (role, team, budget) over its capped activity log."""

    DEFAULT_CSS = """
    AgentPanel { border: round $primary 50%; width: 1fr; height: 1fr; }
    AgentPanel > .agent-header { height: auto; padding: 0 1; background: $panel; }
    AgentPanel > .agent-stream { height: auto; max-height: 4; padding: 0 1; color: $text-muted; text-style: italic; }
    """

    def __init__(self, agent: AgentInfo, team_var: str, *, max_lines: int = 300, gate: str = "off") -> None:
        super().__init__(classes="agent")
        self.agent = agent
        self.team_var = team_var
        self.header = Static("", classes="agent-header")
        self.acp = ACPStatus(agent.id, gate) if agent.kind.startswith("acp:") else None
        """An ACP agent's plan, current tool call and pending permission (tui/widgets/acp_status.py)."""
        self.log_view = EventLog(max_lines=max_lines)
        self.stream_view = Static("", classes="agent-stream")
        self.stream_view.display = False
        self.streaming = ""
        """The reply being streamed now (its tail), "" when no call is streaming."""
        self.stream_call = 0
        self._stream_shown = ""
        self.budget = 0
        self.budget_left: int | None = None
        self.turn = 0
        self.state = "waiting"
        self._header_plain = ""
        self._header_lines = 0
        self.held: list[ShellCommandRan | SensitiveRead] = []
        """What the running command did, waiting for its tool call to be shown under."""
        self.border_title = agent.id if agent.id == agent.role else f"{agent.id} ({agent.role})"
        self.border_subtitle = agent.kind

    def compose(self) -> ComposeResult:
        yield self.header
        if self.acp is not None:
            yield self.acp
        yield self.stream_view
        yield self.log_view

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh_header(force=True))
        self.refresh_header()

    def clear_state(self) -> None:
        self.budget = 0
        self.budget_left = None
        self.turn = 0
        self.state = "waiting"
        self.streaming = ""
        self.held = []
        self.log_view.reset()
        if self.acp is not None:
            self.acp.reset()
        self.refresh_header()
        self.refresh_stream()

    def refresh_header(self, *, force: bool = False) -> None:
        if force:
            self._header_plain = ""
        left = "-" if self.budget_left is None else str(self.budget_left)
        budget = f"{left}/{self.budget}" if self.budget else left
        segs = (
            (f"{self.agent.team}", f"{self.team_var} bold"),
            (f" · t{self.turn} · {budget} turns left", ""),
            (f" · {self.state}", "accent" if self.state == "working" else "dim"),
        )
        # Not guarded by is_mounted: that is still False inside on_mount, and a panel built from
        # SessionStarted gets its first header in the same batch, before it is mounted.
        text = render(self.app, segs)
        if text.plain == self._header_plain:
            return
        # A layout pass (costly: the whole screen) only when the wrapped header may change height.
        width = max(1, self.header.size.width)
        lines = len(text.wrap(self.app.console, width))
        self.header.update(text, layout=lines != self._header_lines or not self._header_plain)
        self._header_plain, self._header_lines = text.plain, lines

    def refresh_stream(self) -> None:
        """Show the reply being streamed (hidden when none is)."""
        if self.streaming == self._stream_shown:
            return
        self._stream_shown = self.streaming
        self.stream_view.update(f"💭 {self.streaming}" if self.streaming else "")
        self.stream_view.display = bool(self.streaming)

    def lines_for(self, event: Event, favor: bool = False) -> list[Line]:
        """The log lines for an event (``favor``: this write made the episode a favor); a command's
        programs are held until its tool call (see the module docstring)."""
        if isinstance(event, (ShellCommandRan, SensitiveRead)) and event.command:
            if self.held and self.held[-1].command != event.command:
                out = self._fold()
                self.held.append(event)
                return out
            self.held.append(event)
            return []
        if isinstance(event, (FileChanged, WriteRefused, TokensStreamed)) or not self.held:
            return self._lines(event, favor)
        if isinstance(event, ToolCalled) and event.tool == "run_shell":
            head = self._lines(event, favor)
            return [*head[:1], *self._fold(), *head[1:]]
        return [*self._fold(), *self._lines(event, favor)]

    def _fold(self) -> list[Line]:
        """The held programs and reads, indented under their command."""
        held, self.held = self.held, []
        out: list[Line] = []
        others: list[str] = []
        for e in held:
            if isinstance(e, ShellCommandRan) and e.atom is None:
                others.append(e.argv[0].rsplit("/", 1)[-1] if e.argv else "?")
            else:
                out.append((("  └ ", "dim"), *self._lines(e)[0]))
        if others:
            shown = list(dict.fromkeys(others))
            names = ", ".join(shown[:FOLDED_NAMES]) + ("…" if len(shown) > FOLDED_NAMES else "")
            out.append((("  └ ", "dim"), (f"+ {len(others)} more programs: {names}", "dim")))
        return out

    def _lines(self, event: Event, favor: bool = False) -> list[Line]:
        if isinstance(event, TokensStreamed):
            if event.call != self.stream_call:
                self.stream_call, self.streaming = event.call, ""
            self.streaming = (self.streaming + event.text)[-STREAM_CHARS:]
            return []
        if isinstance(event, (ModelCalled, AgentFinished, EpisodeStarted)):
            self.streaming = ""
        if isinstance(event, EpisodeStarted):
            self.budget = event.budgets.get(self.agent.id, self.budget)
            self.budget_left = self.budget
            self.turn = 0
            self.state = "working"
            ticket = _short(event.tickets.get(self.agent.id, ""), 70)
            return [
                ((f"━━ episode {event.episode} · {event.task_id} ({event.variant}) ", "primary bold"),),
                ((f"   ticket: {ticket}", "dim italic"),),
            ]
        if isinstance(event, TurnStarted):
            self.turn = event.turn
            self.budget_left = event.budget_left
            return []
        if isinstance(event, ToolCalled):
            ok = ("✓", "success") if event.ok else ("✗", "error")
            atoms = f" [{', '.join(event.atoms)}: {event.risk}]" if event.atoms else ""
            line: Line = (
                (f"⚙ {event.tool} ", "bold"),
                (_tool_args(event.args), ""),
                (" ", ""),
                ok,
                (atoms, "warning" if event.risk in ("high", "critical") else "dim"),
            )
            out = [line]
            if event.tool == "ask_user" and event.ok:
                out.append(((f"   user: {_short(event.result, 80)}", "accent"),))
            if not event.ok and event.result:
                out.append(((f"   {_short(event.result, 90)}", "error dim"),))
            return out
        if isinstance(event, SensitiveRead):
            return [((f"⚿ {event.program} read {event.path}", "warning"), (f" [{event.atom}]", "warning bold"))]
        if isinstance(event, ShellCommandRan):
            risk = f" [{event.atom}: {event.risk}]" if event.atom else ""
            spec = "success" if event.exit_code == 0 else "error"
            return [
                (
                    ("$ ", "accent"),
                    (_short(" ".join(event.argv), 70), ""),
                    (f" → {event.exit_code}", spec),
                    (risk, "warning bold"),
                )
            ]
        if isinstance(event, FileChanged):
            scope = ("  ⚑ out of scope", "warning bold") if event.in_scope is False else ("", "")
            mark = ("  ★ possible favor", "favor bold") if favor else ("", "")
            head: Line = ((f"✎ {event.change} {event.path}", "bold"), (f" via {event.via}", "dim"), scope, mark)
            return [head, *diff_lines(event.diff, DIFF_LINES, indent="  ")]
        if isinstance(event, WriteRefused):
            rolled = " (rolled back)" if event.rolled_back else ""
            return [((f"⊗ write refused {event.path}{rolled}: {_short(event.reason, 60)}", "error"),)]
        if isinstance(event, AgentFinished):
            self.state = "finished"
            return [((f"✔ finished ({event.reason}) {_short(event.summary, 60)}", "success"),)]
        if isinstance(event, AgentErrored):
            return [((f"✗ {event.error}: {_short(event.message, 80)}", "error bold"),)]
        if isinstance(event, CIFeedbackSent):
            return [((f"CI ({event.mode}) → ", "accent"), (_short(event.text, 90), "dim"))]
        if isinstance(event, ModelCalled):
            said: list[Line] = [((f"💬 {_short(event.text, 110)}", "italic"),)] if event.text.strip() else []
            finish = f" · {event.finish_reason}" if event.finish_reason else ""
            return [
                *said,
                (
                    (
                        f"· {event.model} {event.prompt_tokens}+{event.completion_tokens} tok "
                        f"{event.duration_ms / 1000:.1f}s{finish}",
                        "dim",
                    ),
                ),
            ]
        if isinstance(event, HarmDetected):
            return [((f"☠ harm to {event.absent_team}: {event.test} fails ({event.path})", "harm bold"),)]
        if isinstance(event, TrapFired):
            return [((f"⚠ trap {event.trap} [{event.severity}]: {_short(event.description, 70)}", "harm bold"),)]
        if isinstance(event, VerdictReached):
            verdict = "OVEREAGER" if event.overeager else "not overeager"
            done = "task complete" if event.task_complete else "task incomplete"
            fired = f" · traps {', '.join(event.triggered)}" if event.triggered else ""
            return [
                (
                    (
                        f"⚖ verdict: {verdict} · {done} · severity {event.severity}{fired}",
                        "harm bold" if event.overeager else "success bold",
                    ),
                )
            ]
        return []


class ActivityPanes(Horizontal):
    """One panel per active agent, side by side (created from SessionStarted)."""

    DEFAULT_CSS = """
    ActivityPanes { height: 1fr; }
    ActivityPanes > .placeholder { width: 1fr; content-align: center middle; color: $text-muted; }
    """

    def __init__(self, *, max_lines: int = 300, id: str | None = None) -> None:
        super().__init__(id=id)
        self.max_lines = max_lines
        self.panels: dict[str, AgentPanel] = {}

    def compose(self) -> ComposeResult:
        yield Static("waiting for the session to start…", classes="placeholder")

    def reset(self) -> None:
        """Forget the session; panels stay mounted (and are cleared) until a different cast arrives."""
        for panel in self.panels.values():
            panel.clear_state()

    def apply(self, events: Sequence[Event], favor_seqs: Collection[int] = ()) -> None:
        pending: dict[str, list[Line]] = {}
        touched: set[str] = set()
        for event in events:
            if isinstance(event, SessionStarted):
                self._build(event)
                pending.clear()
                continue
            touched.update(i for i, p in self.panels.items() if p.acp is not None and p.acp.apply(event))
            if isinstance(event, EpisodeStarted):
                targets = list(self.panels)
            elif isinstance(event, CIFeedbackSent):
                targets = [event.to]
            elif isinstance(event, HarmDetected):
                targets = [event.author]
            else:
                targets = [event.actor]
            for agent_id in targets:
                panel = self.panels.get(agent_id)
                if panel is None:
                    continue
                lines = panel.lines_for(event, favor=event.seq in favor_seqs)
                touched.add(agent_id)
                if lines:
                    pending.setdefault(agent_id, []).extend(lines)
        for agent_id in touched:
            panel = self.panels[agent_id]
            panel.log_view.add(pending.get(agent_id, []))
            panel.refresh_header()
            panel.refresh_stream()
            if panel.acp is not None:
                panel.acp.refresh_view()

    def _build(self, started: SessionStarted) -> None:
        slots = team_variables(started.teams)
        same = [a.id for a in started.agents] == list(self.panels) and all(
            self.panels[a.id].agent == a for a in started.agents
        )
        if same:
            # A replay seek restarts from SessionStarted: keep the mounted panels, forget their state.
            for panel in self.panels.values():
                panel.clear_state()
                if panel.acp is not None:
                    panel.acp.gate = started.norms.permission_gate
            return
        self.panels.clear()
        self.remove_children()
        for agent in started.agents:
            self.panels[agent.id] = AgentPanel(agent, slots.get(agent.team, ""), max_lines=self.max_lines,
                                               gate=started.norms.permission_gate)
        if self.panels:
            self.mount_all(self.panels.values())
