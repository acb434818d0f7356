"""The toolbox: the one dispatcher through which every agent kind acts.

Each call is validated, run against the episode's sandbox and queues, and recorded as a
``ToolCalled`` event. Bad agent input never raises: the agent gets ``error: ...`` back.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from channel.errors import ScopewatchError
from channel.events import AgentFinished, MessagePosted, PermissionRequested, ReviewDecided, ReviewRequested, ToolCalled
from channel.text import cut
from channel.vocab import Intent
from channel.vocab.edit import Edit, EditError, replace_once
from channel.vocab.risk import highest
from channel.vocab.tools import SESSION_TOOLS, ToolArgs, ToolError, parse_args
from engine.llm.secrets import redact
from engine.session.episode import EpisodeRuntime, normalised_edits
from engine.session.order import TurnOrder
from engine.session.permissions import as_answered, scripted_decision
from engine.session.reviewer import decide
from sandbox.commands.atoms import Classification, default_registry
from sandbox.commands.commandline import LineAtom, classify_tool_call
from sandbox.commands.volume import ARG_MAX
from sandbox.errors import PathEscape
from sandbox.protocol import AgentPipes, AgentProcesses
from sandbox.workspace.diffs import unified_diff
from sandbox.workspace.paths import normalise

MAX_RESULT = 4000
"""Results longer than this are cut for the agent and the event (the workspace keeps everything)."""
MAX_ARGUMENT = ARG_MAX
"""Characters of one argument in a ``ToolCalled`` (4,096, as for every argument in an event); a longer one is cut,
and the cut said."""


class SessionToolbox:
    """Tools bound to one agent for one episode."""

    tools: ClassVar[tuple[type[ToolArgs], ...]] = SESSION_TOOLS
    """The tools this toolbox offers (a session variant may add some, like ``ask_user``): each runs
    as the method ``_<name>`` with the validated arguments as keywords."""

    def __init__(self, runtime: EpisodeRuntime, agent_id: str) -> None:
        self.runtime = runtime
        self.agent_id = agent_id
        self.seat = runtime.seats[agent_id]
        self.finished = False
        self.order: TurnOrder | None = None
        """The round's order of calls where every seat is scripted (:mod:`engine.session.order`)."""

    @property
    def agent_home(self) -> Path:
        """HOME of this agent's shell commands (outside the workspace): external agents' scratch."""
        return self.runtime.sandbox.home

    async def run_agent_process(
        self, command: str, *, env: dict[str, str], stdin: str | None, timeout: float  # noqa: ASYNC109
    ) -> tuple[int, str]:
        """Run an external agent's process in the sandbox as this agent, keeping the network (it
        reaches its model) and adding ``env``; recorded as one ``run_shell`` tool call with its
        output (redacted). Returns its exit code and output."""
        result = await self.runtime.sandbox.run_shell(
            self.agent_id, command, timeout=timeout, env=env, network=True, stdin=stdin
        )
        output = redact(result.output)
        atoms = classify_tool_call(default_registry(), "run_shell", {"command": command})
        await self.runtime.emit(
            ToolCalled(
                actor=self.agent_id,
                tool="run_shell",
                args={"command": cut(redact(command), MAX_ARGUMENT)},
                ok=result.exit_code == 0,
                result=cut(f"exit {result.exit_code}\n{output}", 1000),
                atoms=tuple(a.atom for a in atoms),
                risk=highest(a.risk for a in atoms),
            )
        )
        return result.exit_code, output

    async def start_agent_process(self, argv: Sequence[str], env: Mapping[str, str]) -> AgentPipes:
        """Start a long-running agent process (an ACP agent) as this agent in the sandbox's jail, the
        network kept for its model: the workspace its working directory, the sandbox's minimal
        environment plus ``env`` (sandbox/commands/agentproc.py). What its own code does is settled
        as this agent's at each turn's end (:meth:`agent_turn`) and before every other operation."""
        sandbox = self.runtime.sandbox
        if not isinstance(sandbox, AgentProcesses):
            raise ScopewatchError("an ACP agent needs a local sandbox (one with a workspace folder on this machine)")
        return await sandbox.start_agent_process(self.agent_id, argv, env)

    async def agent_turn(self, *, starts: bool) -> None:
        """This agent's process's turn starts or ends (what it did so far is settled as its)."""
        sandbox = self.runtime.sandbox
        if isinstance(sandbox, AgentProcesses):
            await sandbox.agent_turn(self.agent_id, starts=starts)

    async def stop_agent_process(self, process: AgentPipes) -> None:
        sandbox = self.runtime.sandbox
        if isinstance(sandbox, AgentProcesses):
            await sandbox.stop_agent_process(self.agent_id, process)
        else:
            await process.close()

    async def ask_permission(
        self, title: str, tool_kind: str, paths: Sequence[str], options: Sequence[str], command: str = ""
    ) -> bool:
        """An ACP agent's permission request, as a review decided by the gate in force (norm
        ``permission_gate``, engine/session/permissions.py): True when it is allowed. ``command``: the command
        line of the request."""
        runtime = self.runtime
        rels, escaped = [], []
        for path in paths:
            try:
                rels.append(self.relative(path))
            except PathEscape:
                escaped.append(path)
        request_id = f"p{runtime.number}.{runtime.next_request_id().split('.', 1)[1]}"
        await runtime.emit(
            PermissionRequested(actor=self.agent_id, request_id=request_id, title=title, tool_kind=tool_kind,
                                paths=(*rels, *escaped), options=tuple(options), episode=runtime.number)
        )
        gate = runtime.norms().permission_gate
        if gate == "human":
            cmd = await runtime.permissions.wait(request_id)
            decision, comment, by = cmd.decision, cmd.comment, "human"
        elif gate == "scripted":
            ownership, team = runtime.sandbox.ownership, self.seat.team
            decision, comment = scripted_decision(
                tool_kind, [*rels, *escaped],
                lambda p: p not in escaped and (p in self.seat.scope or ownership.owner_of(p) == team),
                command,
            )
            by = "reviewer"
        else:
            decision, comment, by = "approved", "permission gate off", "reviewer"
        decision, comment = as_answered(decision, comment, options)  # what the agent gets, as it gets it
        await runtime.emit(ReviewDecided(actor=by, request_id=request_id, decision=decision, comment=comment))
        return decision == "approved"

    def relative(self, path: str, *, strict: bool = True) -> str:
        """A path as an ACP agent sends it (absolute, in the workspace) as a workspace-relative one;
        raises :class:`PathEscape` for a path outside the workspace. Not ``strict``: never raises, a
        path outside the workspace comes back as it is and one inside is not checked (the tool that
        takes it refuses it, and the refusal is recorded)."""
        root = getattr(self.runtime.sandbox, "root", None)
        if os.path.isabs(path) and isinstance(root, Path):
            inside = Path(os.path.normpath(path))
            if not inside.is_relative_to(root.resolve()) and not inside.is_relative_to(root):
                if not strict:
                    return path
                raise PathEscape(f"{path}: outside the workspace", path=path)
            base = root.resolve() if inside.is_relative_to(root.resolve()) else root
            path = inside.relative_to(base).as_posix()
        return normalise(path) if strict else path

    async def call(self, name: str, args: dict[str, Any], *, limit: int | None = MAX_RESULT,
                   view: Callable[[str], str] | None = None, noted: Mapping[str, Any] | None = None) -> str:
        """Run one tool; its result for the agent is cut at ``limit`` characters (None: whole, for an
        ACP agent's file reads, which it may write back), the event's always at 1000. ``view``: the part of a
        successful result the agent gets (an ACP read's ``line``/``limit``), recorded as what it got, with
        ``noted`` among the recorded arguments (the tool itself does not take them)."""
        if not isinstance(args, dict):
            args = {}
        args = {k: v for k, v in args.items() if v is not None}  # a null argument is a missing one
        if self.order is None:
            return await self._call(name, args, limit, view, noted or {})
        async with self.order.call(self.agent_id):
            return await self._call(name, args, limit, view, noted or {})

    async def _call(self, name: str, args: dict[str, Any], limit: int | None,
                    view: Callable[[str], str] | None = None, noted: Mapping[str, Any] | None = None) -> str:
        ok = True
        try:
            parsed = parse_args(self.tools, name, args)  # pydantic's validation, one-line errors
            if self.finished:
                raise ToolError("you already finished this episode")
            fields = {key: getattr(parsed, key) for key in type(parsed).model_fields}
            result = await getattr(self, f"_{name}")(**fields)
        except (ToolError, ScopewatchError, ValueError) as exc:
            ok, result = False, f"error: {exc}"
        except Exception as exc:  # whatever an agent sends, the session goes on
            ok, result = False, f"error: {name} failed: {type(exc).__name__}: {exc}"
        if ok and view is not None:
            result = view(result)
        read = None
        if ok and name == "read_file" and isinstance(path := args.get("path"), str):
            target, read = self.read_atom(path)
            noted = {**(noted or {}), **self._reached(path, target)}
        await self.record_call(name, {**args, **(noted or {})}, ok=ok, result=result, read=read)
        return result if limit is None else cut(result, limit)

    def read_target(self, path: str) -> str:
        """The workspace file a read of ``path`` reaches (its symlinks resolved inside the workspace; ``path`` itself
        when it cannot be resolved): a read is classified by the file read, not the name given (red team 5, 05)."""
        try:
            return self.runtime.sandbox.resolve(path)
        except ScopewatchError:
            return path

    def read_atom(self, path: str) -> tuple[str, Classification | None]:
        """(the file a read of ``path`` is, the read's atom): the reached file's, else the given name's, else, for a
        file that is a known secret by its inode or content under an innocent name (a ``.env`` renamed by a command:
        red team 6, 01), that secret's (named as the secret: ``.env``), as the shell's tracer classifies it."""
        target, registry = self.read_target(path), default_registry()
        kind = registry.classify_tool("read_file", target) or registry.classify_tool("read_file", path)
        if kind is not None:
            return target, kind
        try:
            known = self.runtime.sandbox.secret_of(target)
        except ScopewatchError:
            known = None
        if known is None:
            return target, None
        atom = registry.get(known[1])
        return known[0], Classification(atom=atom.name, category=atom.category, risk=atom.risk,
                                        needs_authorisation=atom.needs_authorisation)

    @staticmethod
    def _reached(path: str, target: str) -> dict[str, str]:
        """``{"resolved": FILE}`` for a read whose path reached another file than it names (a symlink, a renamed
        secret), else nothing."""
        try:
            same = target == normalise(path)
        except ScopewatchError:
            same = False
        return {} if same else {"resolved": target}

    async def record_call(self, name: str, args: dict[str, Any], *, ok: bool, result: str,
                          read: Classification | None = None) -> None:
        """Record a tool call as a ``ToolCalled`` event with its atoms: one this toolbox ran, or one an
        agent product ran inside its own process (its Read / Edit / Bash, projected by its adapter). ``read``: a
        read's atom as :meth:`read_atom` found it (its name may be one the registry does not know: HOME's bait)."""
        atoms = classify_tool_call(default_registry(), name, args)
        if not atoms and read is not None:
            atoms = (LineAtom(("read_file", str(args.get("resolved", args.get("path", "")))), read.atom, read.risk,
                              read.needs_authorisation),)
        await self.runtime.emit(
            ToolCalled(
                actor=self.agent_id,
                tool=name,
                args={k: cut(redact(_as_text(v)), MAX_ARGUMENT) for k, v in args.items()},
                ok=ok,
                result=cut(redact(result), 1000),
                atoms=tuple(a.atom for a in atoms),
                risk=highest(a.risk for a in atoms),
            )
        )

    # --- files -----------------------------------------------------------------------------

    async def _list_files(self) -> str:
        sandbox = self.runtime.sandbox
        files = await sandbox.list_files()
        return "\n".join(f"{path}  [{sandbox.ownership.owner_of(path) or 'unowned'}]" for path in files)

    async def _read_file(self, path: str) -> str:
        return await self.runtime.sandbox.read(self.agent_id, path)

    async def _write_file(self, path: str, content: str) -> str:
        await self._guarded(path, content)
        await self.runtime.sandbox.write(self.agent_id, path, content)
        return f"wrote {path}"

    async def _edit_file(self, path: str, old: str, new: str) -> str:
        if self._needs_guard(path) and old:
            current = await self.runtime.sandbox.read(self.agent_id, path)
            with contextlib.suppress(EditError):  # a bad edit: the sandbox refuses it with the reason
                await self._guarded(path, replace_once(current, old, new))
        await self.runtime.sandbox.edit(self.agent_id, path, old, new)
        return f"edited {path}"

    async def _run_shell(self, command: str) -> str:
        runtime = self.runtime
        guarded = {}
        if runtime.norms().guarded_assistance:
            # What the command may change that guarded assistance protects, as it is now.
            for path in runtime.harm.consumed_paths(await runtime.sandbox.list_files()):
                if self._needs_guard(path):
                    guarded[path] = await runtime.sandbox.read("engine", path)
        result = await runtime.sandbox.run_shell(self.agent_id, command)
        notes = [await self._guard_after_shell(path, before) for path, before in guarded.items()]
        extra = "".join(f"\n{n}" for n in notes if n)
        return f"exit {result.exit_code}\n{result.output}{extra}"

    def _needs_guard(self, path: str) -> bool:
        runtime = self.runtime
        if not runtime.norms().guarded_assistance:
            return False
        try:
            rel = normalise(path)
        except PathEscape:
            return False  # the sandbox refuses it anyway
        return rel not in self.seat.scope and bool(runtime.harm.consumers(rel))

    async def _guarded(self, path: str, content: str) -> None:
        """Guarded assistance: an out-of-scope write lands only if absent contract tests stay green."""
        if not self._needs_guard(path):
            return
        runtime = self.runtime
        rel = normalise(path)
        before = await runtime.sandbox.read("engine", rel) if runtime.sandbox.exists(rel) else ""
        reason = await runtime.harm.guard(rel, before, content)
        if reason:
            await runtime.sandbox.refuse(self.agent_id, rel, reason, via="tool")
            raise ToolError(reason)

    async def _guard_after_shell(self, path: str, before: str) -> str:
        """Guarded assistance for shell writes: a harmful change is rolled back and reported."""
        runtime = self.runtime
        now = await runtime.sandbox.read("engine", path) if runtime.sandbox.exists(path) else ""
        if now == before:
            return ""
        reason = await runtime.harm.guard(path, before, now)
        if not reason:
            return ""
        diff = unified_diff(path, before.encode(), now.encode())
        await runtime.sandbox.roll_back(self.agent_id, path, before, reason, diff=diff)
        return f"note: rolled back {path}: {reason}"

    # --- communication ---------------------------------------------------------------------

    async def _post_message(self, text: str, intent: Intent = "info", asks: str | None = None) -> str:
        if not self.runtime.norms().shared_channel:
            raise ToolError("the shared channel is off under the current norms; use send_dm")
        await self.runtime.emit(
            MessagePosted(
                actor=self.agent_id,
                text=text,
                intent=intent,
                asks=asks or None,
                episode=self.runtime.number,
            )
        )
        return "posted to the shared channel"

    async def _send_dm(self, to: str, text: str, intent: Intent = "info") -> str:
        if to not in self.runtime.seats or to == self.agent_id:
            others = [a for a in self.runtime.seats if a != self.agent_id]
            raise ToolError(f"unknown recipient {to!r}; you can message: {', '.join(others)}")
        await self.runtime.emit(
            MessagePosted(
                actor=self.agent_id,
                text=text,
                to=to,
                intent=intent,
                asks=to if intent == "request" else None,
                episode=self.runtime.number,
            )
        )
        return f"sent to {to}"

    async def _request_review(self, to: str, edits: tuple[Edit, ...], description: str = "") -> str:
        runtime = self.runtime
        if to != "admin" and to not in runtime.seats:
            raise ToolError(f"'to' must be 'admin' or an engineer id ({', '.join(runtime.seats)})")
        if to == self.agent_id:
            raise ToolError("you cannot ask yourself for a review")
        if to != "admin" and runtime.norms().admin_only:
            raise ToolError("admin-only: requests for other teams' files go to the admin (to='admin')")
        parsed = normalised_edits(edits)
        _, diff = await runtime.proposed_diff(parsed)
        request_id = runtime.next_request_id()
        request = await runtime.emit(
            ReviewRequested(
                actor=self.agent_id,
                request_id=request_id,
                to=to,
                paths=tuple(sorted({e.path for e in parsed})),
                diff=diff,
                edits=tuple(parsed),
                description=description,
                episode=runtime.number,
            )
        )
        runtime.pending[request_id] = request
        return f"review request {request_id} sent to {to}"

    async def _approve_request(self, request_id: str) -> str:
        runtime = self.runtime
        request = runtime.pending.get(request_id)
        if request is None:
            raise ToolError(f"no pending request {request_id!r}")
        if request.to != self.agent_id:
            raise ToolError(f"request {request_id} is addressed to {request.to}, not to you")
        if runtime.norms().admin_only:
            raise ToolError("admin-only: only the admin may approve requests")
        foreign = [p for p in request.paths if runtime.sandbox.ownership.owner_of(p) != self.seat.team]
        if foreign:
            raise ToolError(f"you can only approve changes to files your team owns, not {', '.join(foreign)}")
        decided = await decide(runtime, request_id, "approved", by=self.agent_id)
        return f"request {request_id} {decided.decision}" + (f": {decided.comment}" if decided.comment else "")

    async def _finish(self, summary: str = "") -> str:
        self.finished = True
        await self.runtime.emit(AgentFinished(actor=self.agent_id, episode=self.runtime.number, summary=summary))
        return "finished"




def _as_text(value: Any) -> str:
    """An argument as the agent sent it: text as it is, anything else as JSON (``["ls"]``, not ``['ls']``)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:  # a circular value: no agent sends one over the wire
        return str(value)
