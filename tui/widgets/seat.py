"""A person in an agent's seat: the prompt an agent there would get, a command line that calls the
agent's tools, and what the tools answered.

Commands (one line each): ``ls`` · ``read PATH`` · ``edit PATH`` (in ``$VISUAL``/``$EDITOR`` when set,
else inline; written back with ``write_file``) · ``sh COMMAND`` · ``post TEXT`` · ``ask TEXT`` (a
request on the shared channel) · ``dm TO TEXT`` · ``review PATH [TO]`` (edit a file you don't own and
ask ``TO``, the admin by default, to apply it) · ``approve ID`` · ``finish [SUMMARY]`` · ``pass``.

Each becomes a ``SeatCall`` command on the bus (so the same panel works in-process and over MQTT);
the engine runs it through the toolbox every agent uses and answers with ``SeatAnswered``. Reading
(``ls``, ``read``) is free; any other call ends the person's turn, as an agent's reply does.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SuspendNotSupported
from textual.containers import Vertical
from textual.widgets import Input, RichLog, Static

from channel.commands import SeatCall
from channel.events import AgentFinished, EpisodeEnded, EpisodeStarted, Event, SeatAnswered, SeatPrompted
from tui.screens.editor import EditorScreen

HELP = (
    "ls · read PATH · edit PATH · sh CMD · post TEXT · ask TEXT · dm TO TEXT · review PATH [TO] · "
    "approve ID · finish [SUMMARY] · pass"
)
CUT = re.compile(r"\n\.\.\. \[\d+ more characters\]$")
"""How the toolbox marks a result it cut (engine/session/toolbox.py): such a file is not edited here."""


class SeatError(ValueError):
    """A command line the panel cannot send; the message says what is expected."""


@dataclass(frozen=True)
class Editing:
    """A read sent so that its answer opens an editor: write it back, or ask for a review."""

    path: str
    review_to: str | None = None


def parse(line: str) -> tuple[str, dict[str, Any]]:
    """A command line as (tool, arguments); raises SeatError for what is not one."""
    verb, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    words = rest.split()

    def need(n: int, usage: str) -> None:
        if len(words) < n:
            raise SeatError(f"usage: {usage}")

    match verb:
        case "ls":
            return "list_files", {}
        case "read" | "edit":
            need(1, f"{verb} PATH")
            return "read_file", {"path": words[0]}
        case "review":
            need(1, "review PATH [TO]")
            return "read_file", {"path": words[0]}
        case "sh":
            need(1, "sh COMMAND")
            return "run_shell", {"command": rest}
        case "post" | "ask":
            need(1, f"{verb} TEXT")
            return "post_message", {"text": rest, "intent": "request" if verb == "ask" else "info"}
        case "dm":
            need(2, "dm TO TEXT")
            return "send_dm", {"to": words[0], "text": rest.split(None, 1)[1]}
        case "approve":
            need(1, "approve ID")
            return "approve_request", {"request_id": words[0]}
        case "finish":
            return "finish", {"summary": rest}
        case "pass":
            return "pass", {}
    raise SeatError(f"unknown command {verb!r}; {HELP}" if verb else HELP)


class SeatPanel(Vertical):
    """The seat ``agent_id`` played from this screen."""

    DEFAULT_CSS = """
    SeatPanel { dock: bottom; height: 14; border: heavy $secondary; background: $surface; }
    SeatPanel.-your-turn { border: heavy $success; }
    SeatPanel > .seat-status { height: 1; padding: 0 1; text-style: bold; }
    SeatPanel > RichLog { height: 1fr; background: $surface; }
    SeatPanel > Input { height: 3; }
    """

    def __init__(self, agent_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.agent_id = agent_id
        self.status_line = Static("", classes="seat-status")
        self.log_view = RichLog(wrap=True, markup=False, max_lines=2000)
        self.input = Input(placeholder=HELP)
        self.your_turn = False
        self.finished = False
        self.episode = 0
        self.turn = 0
        self.budget_left = 0
        self.answers: list[SeatAnswered] = []
        """This seat's answers so far (tests and the status line read them)."""
        self._editing: dict[str, Editing] = {}
        self._prefix = uuid.uuid4().hex[:6]
        self._count = 0
        self.border_title = f"Your seat: {agent_id}"

    def compose(self) -> ComposeResult:
        yield self.status_line
        yield self.log_view
        yield self.input

    def on_mount(self) -> None:
        self._show()
        self.input.focus()

    def reset(self) -> None:
        self.your_turn = self.finished = False
        self.episode = self.turn = self.budget_left = 0
        self.answers.clear()
        self._editing.clear()
        self.log_view.clear()
        self._show()

    # --- the stream ------------------------------------------------------------------------------

    def apply(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, EpisodeStarted):
                self.episode, self.finished, self.your_turn = event.episode, False, False
                self._say(f"── episode {event.episode}: {event.task_id} ──", "bold")
            elif event.actor != self.agent_id:
                continue
            elif isinstance(event, SeatPrompted):
                self.your_turn, self.turn, self.budget_left = True, event.turn, event.budget_left
                self._say(event.text, "")
            elif isinstance(event, SeatAnswered):
                self._answered(event)
            elif isinstance(event, AgentFinished):
                self.finished, self.your_turn = True, False
                self._say(f"you finished episode {event.episode} ({event.reason})", "bold")
            if isinstance(event, EpisodeEnded):
                self.your_turn = False
        self._show()

    def _answered(self, answer: SeatAnswered) -> None:
        self.answers.append(answer)
        if answer.turn_over:
            self.your_turn = False
        style = "" if answer.ok else "bold red"
        self._say(f"{answer.tool} → {answer.result}", style)
        editing = self._editing.pop(answer.call, None)
        if editing is not None and answer.ok:
            self._edit(editing, answer.result)

    def _show(self) -> None:
        self.set_class(self.your_turn, "-your-turn")
        if self.finished:
            state = "finished this episode; waiting for the next"
        elif self.your_turn:
            state = f"your turn {self.turn} · {self.budget_left} left (reading is free; acting ends the turn)"
        else:
            state = "waiting for your turn"
        self.status_line.update(Text(f"{self.agent_id} · episode {self.episode} · {state}"))

    def _say(self, text: str, style: str) -> None:
        self.log_view.write(Text(text, style=style))

    # --- the command line ------------------------------------------------------------------------

    @on(Input.Submitted)
    async def _submitted(self, message: Input.Submitted) -> None:
        message.stop()
        line = message.value.strip()
        self.input.value = ""
        if not line:
            return
        self._say(f"> {line}", "italic")
        try:
            tool, args = parse(line)
        except SeatError as exc:
            self._say(str(exc), "bold red")
            return
        call = await self.send(tool, args)
        verb, _, rest = line.partition(" ")
        if call and verb in ("edit", "review"):
            words = rest.split()
            self._editing[call] = Editing(
                args["path"], (words[1] if len(words) > 1 else "admin") if verb == "review" else None
            )

    async def send(self, tool: str, args: dict[str, Any]) -> str | None:
        """Send one tool call for this seat; its id, or None when nothing could be sent."""
        self._count += 1
        call = f"{self._prefix}-{self._count}"
        command = self.app.command(SeatCall, seat=self.agent_id, tool=tool, args=args, call=call)  # type: ignore[attr-defined]
        sent: bool = await self.app.send(command)  # type: ignore[attr-defined]
        return call if sent else None

    # --- editing ---------------------------------------------------------------------------------

    def _edit(self, editing: Editing, text: str) -> None:
        if CUT.search(text):
            self._say(f"{editing.path} is longer than an agent may read whole: change it with sh", "bold red")
            return
        edited = self._external_editor(editing.path, text)
        if edited is not None:
            self.run_worker(self._write_back(editing, text, edited))
            return
        self.app.push_screen(EditorScreen(editing.path, text), partial(self._saved, editing, text))

    def _saved(self, editing: Editing, before: str, after: str | None) -> None:
        if after is None:
            self._say(f"{editing.path}: edit cancelled, nothing written", "dim")
            return
        self.run_worker(self._write_back(editing, before, after))

    def _external_editor(self, path: str, text: str) -> str | None:
        """Edit in ``$VISUAL``/``$EDITOR`` (the screen suspended meanwhile); None to edit inline."""
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor:
            return None
        with tempfile.TemporaryDirectory(prefix="scopewatch-seat-") as tmp:
            file = Path(tmp) / Path(path).name
            file.write_text(text, encoding="utf-8")
            try:
                with self.app.suspend():
                    subprocess.run([*shlex.split(editor), str(file)], check=False)
            except (SuspendNotSupported, OSError):
                return None  # a web page or a test cannot hand the terminal over: edit inline
            with contextlib.suppress(OSError):
                return file.read_text(encoding="utf-8")
        return None

    async def _write_back(self, editing: Editing, before: str, after: str) -> None:
        if after == before:
            self._say(f"{editing.path} unchanged: nothing written", "dim")
            return
        if editing.review_to is None:
            await self.send("write_file", {"path": editing.path, "content": after})
        else:
            edits = [{"path": editing.path, "old": before, "new": after}]
            await self.send("request_review", {"to": editing.review_to, "edits": edits, "description": ""})
