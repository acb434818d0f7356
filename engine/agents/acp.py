"""Any agent that speaks the Agent Client Protocol (ACP), in any seat: scopewatch is its client.

``--owner acp:'<command>'`` starts the command (claude-code-acp, codex-acp, an agent of one's own),
``--owner acp:gemini-cli:MODEL`` an installed agent product in its ACP mode (engine/agents/acp_launch.py),
in the sandbox's jail as the agent's shell commands run (engine/agents/acp_process.py: the workspace its working
directory, the sandbox's minimal environment, the jail's uid, nothing of the host's files, the network kept for its
model), and talks ACP to it over stdio. What its own code does behind the client's back (Gemini CLI runs its shell
itself) is settled as its at each turn's end (sandbox/backends/aftermath.py: its pushes, its shimmed programs, its
file changes). The client side is where scopewatch watches:

- ``fs/read_text_file`` and ``fs/write_text_file`` are the session toolbox's ``read_file`` and ``write_file``: the
  ownership guard refuses a write to a file the agent's team does not own (``WriteRefused``; the agent gets an
  error), as the sandbox refuses one outside the workspace or into ``.git`` (``WriteRefused``), and a read there is
  a failed ``read_file`` (``ToolCalled``, ``ok`` false); file changes are reported as for every tool
  (``ToolCalled``, ``FileChanged``), and a read of a sensitive path (a ``.env``, credentials) is a
  ``SensitiveRead`` (source ``tool``), as the tracer reports a program's;
- ``terminal/create`` runs the command line through the toolbox's ``run_shell``: the same shim, tracer and jail
  (in its ``cwd``: the workspace root or a folder in it; one outside is a refused ``run_shell``, recorded), so its
  programs come back as ``ShellCommandRan`` events with atoms; the commands ``sw-post TEXT`` and ``sw-dm TO TEXT``
  are the agent's messages, delivered at once; its exit status and output are answered as ACP's schema says
  (engine/agents/acp_terminals.py: a signal by name, the output's end kept within ``outputByteLimit``; one still
  running when the agent exits or overruns its turn is killed at once, after its fatal error); every ``fs/*`` and
  ``terminal/*`` request naming another session than the agent's is refused and recorded;
- ``session/request_permission`` is a review (``PermissionRequested``), answered by the gate in force (norm
  ``permission_gate``, engine/session/permissions.py), and the answer reaches the agent as the option it offered
  (an allow or a reject; one it did not offer is recorded as what it got: ``as_answered``);
- ``session/update`` becomes events (engine/agents/acp_updates.py: its words as they stream, its plan, its tool
  calls' progress, each finished call as a ``ToolCalled`` with atoms); when a call ends, what it queued with the
  peer commands in a shell of its own (Gemini CLI runs its shell itself) is delivered, as again at a turn's end.

Turns: each turn is one ``session/prompt`` on the same ACP session (the first carries the brief, later ones what
arrived in the inbox), so the agent keeps its context and the turn budget counts prompts. A turn in which the agent
did nothing at all, or that it ended by refusing, finishes its episode; at the episode's end scopewatch sends
``session/cancel`` and stops the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import acp
import pydantic
from acp import schema

from channel.emitter import Emit
from channel.errors import ScopewatchError
from channel.events import AgentErrored, SensitiveRead
from channel.vocab import AgentRole
from channel.vocab.atoms import READ_ATOMS
from engine.agents import acp_guard as guard
from engine.agents.acp_launch import AcpOutbox, Launch, acp_launch, first_prompt
from engine.agents.acp_process import ACPProcess, ProcessTools
from engine.agents.acp_terminals import RunningTerminals, Terminal, TerminalTools
from engine.agents.acp_updates import FINISHED, Updates, requested
from engine.agents.base import EpisodeBrief, TurnContext
from engine.llm.prompting import render_inbox
from engine.llm.secrets import redact
from sandbox.commands.atoms import Classification

CANCEL_GRACE = 10.0
"""Seconds an agent has to end its turn after ``session/cancel`` before it is stopped anyway."""


@runtime_checkable
class ACPToolbox(ProcessTools, TerminalTools, Protocol):
    """What a session's toolbox offers an ACP agent (engine.session.toolbox)."""

    finished: bool

    async def ask_permission(
        self, title: str, tool_kind: str, paths: Sequence[str], options: Sequence[str], command: str = ...
    ) -> bool: ...

    def relative(self, path: str, *, strict: bool = ...) -> str: ...

    def read_atom(self, path: str) -> tuple[str, Classification | None]: ...


class ScopewatchClient:
    """The ACP client of one agent for one episode: every request through the toolbox."""

    def __init__(self, agent_id: str, tools: ACPToolbox, emit: Emit, episode: int,
                 outbox: AcpOutbox | None = None) -> None:
        self.agent_id, self.tools, self.emit, self.episode = agent_id, tools, emit, episode
        self.outbox = outbox or AcpOutbox(None)
        self.acted = False
        """Whether the agent did anything (a request or a tool call) since the last look."""
        self.prompts = 0
        self.cancelled = asyncio.Event()
        """Set when the turn is cancelled: a permission request still waiting is answered ``cancelled``."""
        self._terminals: dict[str, Terminal] = {}
        self.running = RunningTerminals()
        self.session_id = ""
        """The agent's ACP session: a request naming another one is refused (and recorded)."""
        self.updates = Updates(agent_id, emit, episode, self._shown)

    async def _tool(self, name: str, args: dict[str, Any], *, whole: bool = False,
                    view: Callable[[str], str] | None = None, noted: dict[str, Any] | None = None) -> str:
        self.acted = True
        result = (await self.tools.call(name, args, limit=None, view=view, noted=noted) if whole
                  else await self.tools.call(name, args))
        if result.startswith("error:"):
            raise acp.RequestError(-32000, result.removeprefix("error: "))
        return result

    async def _own(self, session_id: str, tool: str, args: dict[str, Any]) -> None:
        """Refuse a request for a session that is not the agent's, recorded as the failed call it asked for."""
        if self.session_id and session_id != self.session_id:
            self.acted = True
            why = f"no session {session_id!r} here (the agent's session is {self.session_id!r})"
            await self.tools.record_call(tool, {**args, "sessionId": session_id}, ok=False, result=f"error: {why}")
            raise acp.RequestError(-32602, why)

    # --- files ---------------------------------------------------------------------------------

    async def read_text_file(self, session_id: str, path: str, line: int | None = None, limit: int | None = None,
                             **kwargs: Any) -> schema.ReadTextFileResponse:
        await self._own(session_id, "read_file", {"path": path})
        rel = self.tools.relative(path, strict=False)  # one outside is refused by the tool, and recorded
        part = None if line is None and limit is None else (line, limit)

        def view(content: str) -> str:  # what the agent gets, and what is recorded as its read
            if part is None:
                return content
            start = max((part[0] or 1) - 1, 0)
            return "".join(content.splitlines(keepends=True)[start : start + part[1] if part[1] is not None else None])

        noted = {k: v for k, v in (("line", line), ("limit", limit)) if v is not None}
        content = await self._tool("read_file", {"path": rel}, whole=True, view=view, noted=noted)
        target, kind = self.tools.read_atom(rel)  # the file read (a link's target), classified as the tracer would
        if kind is not None and kind.atom in READ_ATOMS:  # what the tracer reports for a program's read
            await self.emit(SensitiveRead(actor=self.agent_id, path=target, program="acp:fs/read_text_file",
                                          atom=kind.atom, risk=kind.risk, source="tool"))
        return schema.ReadTextFileResponse(content=content)

    async def write_text_file(self, session_id: str, path: str, content: str, **_: Any) -> schema.WriteTextFileResponse:
        await self._own(session_id, "write_file", {"path": path})
        await self._tool("write_file", {"path": self.tools.relative(path, strict=False), "content": content})
        return schema.WriteTextFileResponse()

    def _shown(self, path: str) -> str:
        try:
            return self.tools.relative(path)
        except ScopewatchError:
            return path

    # --- terminals -----------------------------------------------------------------------------

    async def create_terminal(self, session_id: str, command: str, args: list[str] | None = None,
                              env: list[schema.EnvVariable] | None = None, cwd: str | None = None,
                              output_byte_limit: int | None = None, **kwargs: Any) -> schema.CreateTerminalResponse:
        words = [command, *(args or [])]
        await self._own(session_id, "run_shell", {"command": shlex.join(words)})
        name = os.path.basename(command)
        if name == "sw-post" and len(words) > 1:
            terminal = Terminal.cut(await self._tool("post_message", {"text": " ".join(words[1:])}), 0,
                                    output_byte_limit)
        elif name == "sw-dm" and len(words) > 2:
            said = await self._tool("send_dm", {"to": words[1], "text": " ".join(words[2:])})
            terminal = Terminal.cut(said, 0, output_byte_limit)
        else:
            # A command with no arguments is a shell line as the agent wrote it (Gemini CLI's way).
            line = command if not args else shlex.join(words)
            self.acted = True
            try:
                folder = guard.terminal_folder(cwd, self.tools.relative) if cwd else ""
            except ScopewatchError as exc:  # refused, and recorded as a refused fs request is
                await self.tools.record_call("run_shell", {"command": line, "cwd": cwd}, ok=False,
                                             result=f"error: {exc}")
                raise acp.RequestError(-32602, str(exc)) from None
            if folder:
                line = f"cd {shlex.quote(folder)} && {line}"
            terminal = await self.running.run(self.tools, line, output_byte_limit)  # engine/agents/acp_terminals.py
        terminal_id = f"t{len(self._terminals) + 1}"
        self._terminals[terminal_id] = terminal
        return schema.CreateTerminalResponse(terminal_id=terminal_id)

    async def _terminal(self, session_id: str, method: str, terminal_id: str) -> Terminal:
        await self._own(session_id, method, {"terminalId": terminal_id})  # as fs/* requests are
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            raise acp.RequestError(-32602, f"no terminal {terminal_id!r}")
        return terminal

    async def terminal_output(self, session_id: str, terminal_id: str, **kwargs: Any) -> schema.TerminalOutputResponse:
        return (await self._terminal(session_id, "terminal/output", terminal_id)).output_response()

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str,
                                     **kwargs: Any) -> schema.WaitForTerminalExitResponse:
        return (await self._terminal(session_id, "terminal/wait_for_exit", terminal_id)).exit_response()

    async def release_terminal(self, session_id: str, terminal_id: str,
                               **kwargs: Any) -> schema.ReleaseTerminalResponse | None:
        await self._own(session_id, "terminal/release", {"terminalId": terminal_id})
        self._terminals.pop(terminal_id, None)
        return schema.ReleaseTerminalResponse()

    async def kill_terminal(self, session_id: str, terminal_id: str,
                            **kwargs: Any) -> schema.KillTerminalResponse | None:
        await self._terminal(session_id, "terminal/kill", terminal_id)  # commands run to their end first
        return schema.KillTerminalResponse()

    # --- permissions and updates ---------------------------------------------------------------

    async def request_permission(
        self, session_id: str, tool_call: schema.ToolCallUpdate, options: list[schema.PermissionOption], **kwargs: Any
    ) -> schema.RequestPermissionResponse:
        self.acted = True
        known = self.updates.calls.get(tool_call.tool_call_id)
        title = tool_call.title or (known.title if known else "") or tool_call.tool_call_id
        asked = requested(tool_call, known)  # its locations, else its rawInput and title (acp_updates.py)
        asking = asyncio.ensure_future(
            self.tools.ask_permission(title, asked.kind, asked.paths, [o.kind for o in options], asked.command)
        )
        cancelled = asyncio.ensure_future(self.cancelled.wait())
        try:
            await asyncio.wait({asking, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
        if not asking.done():
            asking.cancel()
            return schema.RequestPermissionResponse(outcome=schema.DeniedOutcome(outcome="cancelled"))
        allowed = asking.result()
        wanted = ("allow_once", "allow_always") if allowed else ("reject_once", "reject_always")
        for option in sorted(options, key=lambda o: wanted.index(o.kind) if o.kind in wanted else 9):
            if option.kind in wanted:  # none offered: ``cancelled``, recorded so (engine/session/permissions.py)
                picked = schema.AllowedOutcome(option_id=option.option_id, outcome="selected")
                return schema.RequestPermissionResponse(outcome=picked)
        return schema.RequestPermissionResponse(outcome=schema.DeniedOutcome(outcome="cancelled"))

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        if await self.updates.read(update, self.prompts):
            self.acted = True
            if isinstance(update, (schema.ToolCallStart, schema.ToolCallProgress)) and update.status in FINISHED:
                await self.deliver()

    async def deliver(self) -> None:
        """What the agent queued with the peer commands in a shell of its own, as its tool calls."""
        for item in self.outbox.take():
            await self.tools.call(item["tool"], item["args"])

    async def create_elicitation(self, message: str, mode: schema.ElicitationMode,
                                 **kwargs: Any) -> schema.CreateElicitationResponse:
        raise acp.RequestError.method_not_found("elicitation/create")  # not offered in the capabilities

    async def complete_elicitation(self, elicitation_id: str, **kwargs: Any) -> None:
        return None

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise acp.RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None

    def on_connect(self, conn: Any) -> None:
        return None


class ACPAgent:
    """An ACP agent process, one per episode, driven one prompt per turn (see the module docstring)."""

    def __init__(self, agent_id: str, role: AgentRole, kind: str, *, emit: Emit,
                 stopped: asyncio.Event | None = None, environ: dict[str, str] | None = None,
                 api_base: str | None = None, startup_timeout: float = guard.STARTUP_TIMEOUT,
                 turn_timeout: float | None = None) -> None:
        self.id = agent_id
        self.role: AgentRole = role
        self.launch: Launch = acp_launch(kind)
        self.argv = list(self.launch.argv)
        self.kind = kind if self.launch.product else f"acp:{shlex.join(self.argv)}"
        self.api_base = api_base
        self.emit = emit
        self.stopped = stopped
        """Set when the session is asked to stop: the turn in progress is cancelled (``session/cancel``)."""
        self._environ = environ or {}
        """Variables added to its environment; a product's key is read from the host's."""
        self.brief: EpisodeBrief | None = None
        self.stop_reasons: list[str] = []
        self._stack: contextlib.AsyncExitStack | None = None
        self._conn: acp.ClientSideConnection | None = None
        self._client: ScopewatchClient | None = None
        self._session_id = ""
        self._process: ACPProcess | None = None
        self.startup_timeout, self.turn_timeout = startup_timeout, turn_timeout or guard.TURN_TIMEOUT
        """Bounds on its answers (engine/agents/acp_guard.py): start-up (initialize, session/new), each prompt."""
        self.notices = guard.Notices()
        self._started = False
        """Whether it ever opened a session: an agent that never did is dead and stops the session."""
        self._answered = False
        """Whether it ever answered a ``session/prompt``: one past its turn bound is then alive, not dead."""

    async def start_episode(self, brief: EpisodeBrief) -> None:
        self.brief = brief
        self.stop_reasons = []

    async def take_turn(self, ctx: TurnContext) -> None:
        tools = ctx.tools
        if self.brief is None or tools.finished:
            return
        if not isinstance(tools, ACPToolbox):
            raise ScopewatchError("an ACP agent needs a session's toolbox (it runs a process in the sandbox)")
        first = self._conn is None
        if first:
            await self._open(tools)
        assert self._conn is not None and self._client is not None
        inbox = "\n".join(render_inbox(ctx.inbox, self.id))
        text = self.prompt(self.brief, inbox) if first else (inbox or "(nothing new; go on, or stop if you are done)")
        client = self._client
        client.acted, client.prompts = False, client.prompts + 1
        client.cancelled.clear()
        await tools.agent_turn(starts=True)
        response, gone = None, "agent_gone"
        try:
            response = await self._prompt(self._conn, client, text)
        except (ConnectionError, guard.Overran) as exc:  # it exited or overran its turn: said at once (this episode's
            await self._notify()  # fatal error), then it is stopped and its terminals killed (agents5 #4, agents6 #6)
            over = isinstance(exc, guard.Overran)
            line = str(exc) if over else f"ACP agent {self.kind!r} {await self._gone()}"
            gone = "ScopewatchError" if over else gone
            await self.emit(AgentErrored(actor=self.id, error=gone, message=redact(line)[:500],
                                         episode=self.brief.episode, fatal=True))
            client.running.why = "the agent's process ended while it ran"
            if over:
                await self.end_episode()  # its process stopped, its terminals with it
            await client.running.kill(client.running.why)
        except pydantic.ValidationError as exc:  # an answer ACP does not allow (a stop reason of its own)
            raise ScopewatchError(f"ACP agent {self.kind!r} {guard.against('session/prompt', exc)}") from None
        finally:
            await self._notify()
            await tools.agent_turn(starts=False)  # what its own code did this turn: its pushes, its changes
        await client.deliver()
        if response is None:  # gone: scored on what it did, as an agent that errs
            if not tools.finished:
                await tools.call("finish", {"summary": f"stopped by an error: {gone}"})
            return
        self.stop_reasons.append(response.stop_reason)
        if not tools.finished and (not client.acted or response.stop_reason in ("refusal", "cancelled")):
            await tools.call("finish", {"summary": f"ACP agent stopped ({response.stop_reason})"})

    async def _prompt(
        self, conn: acp.ClientSideConnection, client: ScopewatchClient, text: str
    ) -> schema.PromptResponse:
        """One ``session/prompt``; a stop request meanwhile sends ``session/cancel`` and answers a
        waiting permission request ``cancelled`` (the agent then ends its turn, as ACP says)."""
        prompt: asyncio.Future[schema.PromptResponse] = asyncio.ensure_future(
            conn.prompt(session_id=self._session_id, prompt=[acp.text_block(text)])
        )
        stop = asyncio.ensure_future(self.stopped.wait() if self.stopped is not None else asyncio.Event().wait())
        either: set[asyncio.Future[Any]] = {prompt, stop}
        try:
            done, _ = await asyncio.wait(either, timeout=self.turn_timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if not done:  # a turn bound, as an agent product's run has one: a hung agent would hang the session
            prompt.cancel()
            line = (f"ACP agent {self.kind!r} did not answer session/prompt within {self.turn_timeout:g} s "
                    "(--turn-timeout); stopped")
            # One that acted (or answered a turn before) is alive: this episode's fatal error, scored on
            # what it did, as one that exits mid-turn (take_turn); one that never did anything is a dead agent.
            if self._answered or client.acted:
                raise guard.Overran(line)
            await self.end_episode()
            raise guard.AgentUnreachable(line)
        if not prompt.done():
            client.cancelled.set()
            await conn.cancel(session_id=self._session_id)
            try:
                return await asyncio.wait_for(prompt, CANCEL_GRACE)
            except TimeoutError:
                return schema.PromptResponse(stop_reason="cancelled")
        self._answered = True
        return prompt.result()

    async def _open(self, tools: ACPToolbox) -> None:
        assert self.brief is not None
        home = tools.agent_home
        env = self.launch.environment(home, dict(self._environ), api_base=self.api_base, host=dict(os.environ))
        self._client = ScopewatchClient(self.id, tools, self.emit, self.brief.episode,
                                        AcpOutbox(Path(env["SCOPEWATCH_OUTBOX"]), home))
        stack = contextlib.AsyncExitStack()
        step = "initialize"
        try:
            stack.enter_context(guard.acp_logs(self.notices))  # first: the connection's tasks inherit the context
            self._process = ACPProcess(tools)  # in the sandbox's jail (engine/agents/acp_process.py)
            conn, cwd = await self._process.start(stack, self._client, self.argv, env)
            async with asyncio.timeout(self.startup_timeout):
                init = await conn.initialize(
                    protocol_version=acp.PROTOCOL_VERSION,
                    client_capabilities=schema.ClientCapabilities(
                        fs=schema.FileSystemCapabilities(read_text_file=True, write_text_file=True), terminal=True
                    ),
                    client_info=schema.Implementation(name="scopewatch", title="scopewatch", version="1"),
                )
                if init.protocol_version not in guard.SUPPORTED_VERSIONS:  # ACP: the client closes the connection
                    raise guard.Refused(guard.unsupported(init.protocol_version))
                step = "session/new"
                session = await conn.new_session(cwd=str(cwd), mcp_servers=[])
        except BaseException as exc:
            with contextlib.suppress(Exception):  # closing a dead agent's pipes may fail too: the cause is exc
                await stack.aclose()
            await self._notify()
            raise await self._failed(exc, step) from None
        self._stack, self._conn, self._session_id = stack, conn, session.session_id
        self._client.session_id = session.session_id
        self._started = True

    async def _failed(self, exc: BaseException, step: str) -> BaseException:
        """Why the agent did not start, in one line: an agent that never started stops the session."""
        if isinstance(exc, ConnectionError):
            why: str | None = await self._gone()
        else:
            why = guard.not_started(exc, step, self.startup_timeout, self.argv[0], self.notices.first_garbage)
        if why is None:
            return exc
        line = f"ACP agent {self.kind!r} {why}"[:500]
        return ScopewatchError(line) if self._started else guard.AgentUnreachable(line)

    async def _notify(self) -> None:
        """What the acp library could not read of the agent's, as non-fatal errors (engine/agents/acp_guard.py)."""
        for line in self.notices.take():
            await self.emit(AgentErrored(actor=self.id, error="ACPNotice", message=line,
                                         episode=self.brief.episode if self.brief else 0))

    async def _gone(self) -> str:
        return await self._process.gone() if self._process is not None else "stopped answering"

    async def end_episode(self) -> None:
        """``session/cancel``, then the process stops (stdin closed, then terminated)."""
        self.brief = None
        conn, stack = self._conn, self._stack
        self._conn = self._stack = self._client = None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.cancel(session_id=self._session_id)
        if stack is not None:
            with contextlib.suppress(Exception):  # an agent that died leaves pipes that fail to close
                await stack.aclose()
        if self._process is not None:
            self._process.ended()
        self._process = None

    def prompt(self, brief: EpisodeBrief, inbox: str) -> str:
        """The ticket, who the agent is, what its team owns, how to talk to the other agent."""
        return first_prompt(brief, inbox)
