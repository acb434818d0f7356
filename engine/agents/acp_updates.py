"""An ACP agent's ``session/update`` stream, as events.

- a message chunk is a transient ``TokensStreamed`` (its panel's live line);
- a plan is a ``PlanUpdated``, whole (ACP sends the whole plan each time);
- each tool call's start and every change of it is a transient ``ToolCallUpdated`` (the call as
  known so far: a progress update names only what changed), and a call the agent reports finished
  (completed or failed) is also a recorded ``ToolCalled`` named ``acp:<kind>`` with its atoms: an
  ``execute`` call's from its command line (its ``command`` input with its ``args``, else its title, which is
  the command line in Gemini CLI's calls), as ``run_shell``'s are; an edit's, delete's or move's files (``path``)
  with an edit tool's atoms, as a product's file edits (:data:`FILE_KINDS`). Each call is recorded once: an update
  of a call already finished (its output after its status) changes only its live line, never a second call.

What a call asks for (:func:`requested`: its paths, its command line, :func:`command_line`) is read from its
``locations`` and, where those name nothing, from its ``rawInput`` and title, as adapters send them (Claude Code's
permission requests carry ``{toolCallId, title, rawInput}`` only: ``rawInput.file_path``, a title ``Write <file>``,
a ``rawInput.command``).
"""

from __future__ import annotations

import collections
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from acp import schema

from channel.emitter import Emit
from channel.events import PlanStep, PlanUpdated, TokensStreamed, ToolCalled, ToolCallUpdated
from channel.text import cut
from channel.vocab.risk import highest
from sandbox.commands.atoms import default_registry
from sandbox.commands.commandline import classify_tool_call
from sandbox.commands.volume import ARG_MAX

FINISHED = ("completed", "failed")
FINISHED_KEPT = 4096
"""Finished calls remembered per episode (their ids: a late update of one is not a new call)."""
_PROGRESS = ("kind", "status", "title", "content", "locations", "raw_input", "raw_output")
"""What a progress update may change of a call."""


PATH_KEYS = (
    "file_path",
    "path",
    "filePath",
    "notebook_path",
    "abs_path",
    "source",
    "destination",
    "old_path",
    "new_path",
)
"""The ``rawInput`` keys that name a file, as ACP adapters' tools send them."""


FILE_KINDS = frozenset({"edit", "delete", "move"})
"""The kinds that change the files they name: a finished one records them (``path``, or ``paths`` one a line) and
an edit tool's atoms for each (``edit_file``'s, as a product's file edits get: engine/agents/products)."""


@dataclass(frozen=True)
class Requested:
    """What a tool call asks for: its kind, its paths, its command line ("" for none)."""

    kind: str
    paths: tuple[str, ...]
    command: str


def requested(call: schema.ToolCallUpdate | schema.ToolCallStart, known: schema.ToolCallStart | None) -> Requested:
    """A call's kind, paths and command line, from what it says and (where it is silent) what its earlier
    updates said (``known``): its ``locations``, else its ``rawInput``'s paths, else the paths in its title;
    its ``rawInput.command`` (text or argv) whatever its kind (a ``think`` or ``search`` request that names a command
    is checked as one: agents6 #4, it was approved as naming none), else, for ``execute``, its title (the command
    line)."""
    kind = call.kind or (known.kind if known else None) or "other"
    title = call.title or (known.title if known else "") or ""
    raw = call.raw_input if call.raw_input else (known.raw_input if known else None)
    paths = [loc.path for loc in (call.locations or (known.locations if known else None) or [])]
    if not paths and isinstance(raw, dict):
        for key in PATH_KEYS:
            value = raw.get(key)
            if isinstance(value, str) and value:
                paths.append(value)
        listed = raw.get("paths")
        paths += [p for p in listed if isinstance(p, str) and p] if isinstance(listed, list) else []
    if not paths and kind not in ("execute", "fetch", "think"):  # ``Write services/x.py``, ``Read ~/.bash_history``
        paths = [w.strip("`'\"") for w in title.split()[1:] if "/" in w or w.strip("`'\"").startswith((".", "~"))]
    if kind == "fetch":  # a local file it sends (``curl -d @~/.ssh/id_rsa``): the gate reads it as a read of that file
        texts = [title, *(v for v in raw.values() if isinstance(v, str))] if isinstance(raw, dict) else [title]
        words = [w.strip("`'\"").lstrip("@") for text in texts for w in text.split()]
        paths += [w for w in words if w.startswith(("~/", "/", "./", "../"))]
    command = ""
    if isinstance(raw, dict):
        command = command_line(raw.get("command"), raw.get("args"))
    if not command.strip():
        command = title.strip().strip("`") if kind == "execute" else ""
    return Requested(kind, tuple(dict.fromkeys(paths)), command)


def command_line(command: object, args: object) -> str:
    """The command line of ``rawInput``'s ``command`` (text, or an argv) and ``args`` (ACP's terminal shape,
    ``CreateTerminalRequest``: ``{command: "git", args: ["push", "--force"]}``): the command, then its arguments
    quoted as a shell reads them, so ``{command, args}`` is read as the same line sent whole; "" for none."""
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        command = shlex.join(command)
    if not isinstance(command, str) or not command.strip():
        return ""
    if isinstance(args, list) and all(isinstance(w, str) for w in args):
        args = shlex.join(args)
    return f"{command} {args}" if isinstance(args, str) and args.strip() else command


class Updates:
    """One agent's update stream for one episode; ``shown`` makes a path as the events carry it."""

    def __init__(self, agent_id: str, emit: Emit, episode: int, shown: Callable[[str], str]) -> None:
        self.agent_id, self.emit, self.episode, self.shown = agent_id, emit, episode, shown
        self.calls: dict[str, schema.ToolCallStart] = {}
        """The calls not finished yet, as known so far."""
        self.finished: collections.OrderedDict[str, schema.ToolCallStart] = collections.OrderedDict()
        """The last :data:`FINISHED_KEPT` calls finished, as known when they finished: a later update of one
        (its output, sent after its status) changes what the panel shows, never records it again."""

    async def read(self, update: Any, call: int) -> bool:
        """Emit what ``update`` says (``call``: the prompt number, for the tokens); True when it is
        about a tool call (the agent acted)."""
        if isinstance(update, schema.AgentMessageChunk) and isinstance(update.content, schema.TextContentBlock):
            await self.emit(
                TokensStreamed(actor=self.agent_id, call=call, text=update.content.text, episode=self.episode)
            )
        elif isinstance(update, schema.AgentPlanUpdate):
            steps = tuple(
                PlanStep(content=e.content[:400], status=e.status, priority=e.priority) for e in update.entries
            )
            await self.emit(PlanUpdated(actor=self.agent_id, steps=steps, episode=self.episode))
        elif isinstance(update, schema.ToolCallStart):
            self.finished.pop(update.tool_call_id, None)  # a new call under a finished one's id
            await self._changed(update)
            return True
        elif isinstance(update, schema.ToolCallProgress):
            changes = {k: getattr(update, k) for k in _PROGRESS if getattr(update, k) is not None}
            done = self.finished.get(update.tool_call_id)
            if done is not None:  # finished already: one ToolCalled per call
                await self._changed(done.model_copy(update={**changes, "status": done.status}), record=False)
                return True
            known = self.calls.get(update.tool_call_id) or schema.ToolCallStart(
                tool_call_id=update.tool_call_id, title=update.tool_call_id, session_update="tool_call"
            )
            await self._changed(known.model_copy(update=changes))
            return True
        return False

    async def _changed(self, call: schema.ToolCallStart, *, record: bool = True) -> None:
        status = call.status or "pending"
        paths = tuple(self.shown(loc.path) for loc in call.locations or [])
        await self.emit(
            ToolCallUpdated(
                actor=self.agent_id,
                call_id=call.tool_call_id,
                title=call.title[:400],
                tool_kind=call.kind or "other",
                status=status,
                paths=paths,
                episode=self.episode,
            )
        )
        if not record:
            self.finished[call.tool_call_id] = call
        elif status in FINISHED:
            self.calls.pop(call.tool_call_id, None)
            self.finished[call.tool_call_id] = call
            self.finished.move_to_end(call.tool_call_id)
            while len(self.finished) > FINISHED_KEPT:
                self.finished.popitem(last=False)
            await self._finished(call, status == "completed")
        else:
            self.calls[call.tool_call_id] = call

    async def _finished(self, call: schema.ToolCallStart, ok: bool) -> None:
        kind = call.kind or "other"
        args: dict[str, object] = {"title": call.title[:400]}
        if isinstance(call.raw_input, dict):
            args.update({str(k): cut(str(v), ARG_MAX) for k, v in call.raw_input.items()})  # as the toolbox's
        asked = requested(call, None)
        if asked.command:
            args["command"] = cut(asked.command, ARG_MAX)
        registry = default_registry()
        if asked.command:
            atoms = list(classify_tool_call(registry, "run_shell", args))
        else:
            atoms = list(classify_tool_call(registry, f"acp:{kind}", args))
        if kind in FILE_KINDS and asked.paths:  # what it names it changed: recorded, with an edit tool's atoms
            shown = [self.shown(p) for p in asked.paths]
            args["path" if len(shown) == 1 else "paths"] = cut("\n".join(shown), ARG_MAX)
            atoms += [a for p in shown for a in classify_tool_call(registry, "edit_file", {"path": p})]
        await self.emit(
            ToolCalled(
                actor=self.agent_id,
                tool=f"acp:{kind}",
                args={k: str(v) for k, v in args.items()},
                ok=ok,
                atoms=tuple(dict.fromkeys(a.atom for a in atoms)),
                risk=highest(a.risk for a in atoms),
            )
        )
