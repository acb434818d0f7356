"""External coding agents as owner or requester: any command-line agent, run inside the sandbox.

As seed 003 audits agent products (section 3: the shell shim and the file watcher around an agent
that is not ours), an external agent is one process per episode, run in the workspace through the
Sandbox protocol's ``run_shell``: the shim first on PATH records its sensitive commands as
``ShellCommandRan`` events with atoms, the watcher attributes its file changes to it (and the
ownership guard rolls back what its team does not own), and its output is recorded as the result of
one ``run_shell`` tool call. Its environment is the sandbox's minimal one plus the variables its
adapter names (its model's key) and sets; it keeps the network, to reach its model.

The ticket is its prompt, on stdin or as the last argument (the adapter says which), with who it is,
what its team owns, and the messages so far. It talks to the other agent through tiny commands on its
PATH: ``sw-post TEXT``, ``sw-dm TO TEXT``, ``sw-request-review TO PATH`` (the new content on stdin).
Each appends a line to its outbox, which the engine follows while the process runs
(:class:`~engine.agents.follow.LineFollower`): the line becomes, at once, the same tool call an LLM
agent would make (``post_message``, ``send_dm``, ``request_review``), delivered live into the other
agent's inbox, and the engine acknowledges it (``outbox.jsonl.ack``: the offset delivered so far), so
the command returns ``delivered`` once its message is posted (``queued`` if no acknowledgement came
within :data:`ACK_WAIT` seconds). When the process ends, the agent finishes its episode.

Limits: the process runs once, in the agent's first turn, holding its turn while it runs: the other
agent reads a message posted meanwhile at its next turn, in the same episode.

Kinds: ``cmd:<command line>`` (ticket on stdin), ``<adapter>:<model>`` for a shipped adapter
(:data:`ADAPTERS`: ``mini-swe-agent``), or ``<product>:<model>`` for an agent product
(:mod:`engine.agents.products`: ``claude-code``, ``codex``, ``gemini-cli``, each also ``-gated``),
whose own event stream is read while it runs and whose internal tool calls become ``ToolCalled``
events (:mod:`engine.agents.products.run`).
"""

from __future__ import annotations

import asyncio
import difflib
import json
import logging
import os
import shlex
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from channel.errors import ScopewatchError
from channel.events import AgentErrored, Event, ModelCalled
from channel.vocab import AgentRole
from engine.agents import homefiles
from engine.agents.base import EpisodeBrief, TurnContext
from engine.agents.follow import LineFollower
from engine.agents.products import product_for, product_names
from engine.agents.products.base import Product, ProductCall
from engine.agents.products.run import ProductResult, run_product
from engine.llm.errors import ModelUnreachable
from engine.llm.prompting import render_inbox
from engine.llm.secrets import redact


class AdapterSpec(BaseModel):
    """How to run one command-line agent. ``command`` is a shell command line; ``{model}`` and
    ``{api_base}`` in it (and in ``api_base_args``, which fills ``{api_base_args}`` when there is an
    api base) are replaced by the shell-quoted values."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    command: str
    prompt: Literal["stdin", "argument"] = "stdin"
    """The prompt on standard input, or appended as the last argument."""
    api_base_args: str = ""
    pass_env: tuple[str, ...] = ()
    """Host variables handed to the agent (its model's keys), when set; nothing else of the host's."""
    set_env: dict[str, str] = Field(default_factory=dict)
    timeout: float = Field(900.0, gt=0)
    """Seconds the agent's run may take (its whole episode)."""


_log = logging.getLogger("scopewatch.agents")

MODEL_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY")

ADAPTERS: dict[str, AdapterSpec] = {
    "mini-swe-agent": AdapterSpec(
        name="mini-swe-agent",
        # -y: no confirmations; --exit-immediately: no prompt when it is done; the trajectory to its TMPDIR.
        command='mini -y --exit-immediately -m {model} -c mini.yaml -c model.cost_tracking=ignore_errors '
        '{api_base_args} -o "$TMPDIR/mini-swe-agent.traj.json" -t',
        prompt="argument",
        api_base_args="-c model.model_kwargs.api_base={api_base} -c model.model_kwargs.api_key=no-key-needed",
        pass_env=MODEL_KEYS,
        set_env={
            "MSWEA_SILENT_STARTUP": "1",
            "MSWEA_CONFIGURED": "true",  # skips its first-run setup questions
            "MSWEA_COST_TRACKING": "ignore_errors",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        },
    ),
}
"""Shipped adapters, by name (``--owner mini-swe-agent:openai/gpt-4o-mini``)."""

MESSAGE_COMMANDS = {
    "sw-post": ("post_message", ["text"]),
    "sw-dm": ("send_dm", ["to", "text"]),
    "sw-request-review": ("request_review", ["to", "path"]),
}
"""The commands on an external agent's PATH and the tool each becomes."""
ACK_WAIT = 10.0
"""Seconds a message command waits for the engine's acknowledgement before it says ``queued``."""
PRODUCT_TIMEOUT = 900.0
"""Seconds an agent product's run may take (its whole episode)."""

_MESSAGE_SCRIPT = """\
import json, os, sys, time
name, tool, fields, wait = {name!r}, {tool!r}, {fields!r}, {wait!r}
args = sys.argv[1:]
if len(args) < len(fields):
    sys.exit(f"usage: {{name}} {{' '.join(f.upper() for f in fields)}}")
values = dict(zip(fields, args[: len(fields) - 1] + [" ".join(args[len(fields) - 1 :])]))
if tool == "request_review":
    values["new"] = sys.stdin.read()
    values["old"] = open(values["path"], encoding="utf-8").read() if os.path.isfile(values["path"]) else ""
outbox = os.environ["SCOPEWATCH_OUTBOX"]
with open(outbox, "ab") as out:
    out.write((json.dumps({{"tool": tool, "args": values}}) + "\\n").encode())
    end = out.tell()
deadline = time.monotonic() + wait
while time.monotonic() < deadline:
    try:
        with open(outbox + ".ack", encoding="utf-8") as ack:
            if int(ack.read() or 0) >= end:
                sys.exit(print(f"{{name}}: delivered"))
    except (OSError, ValueError):
        pass
    time.sleep(0.05)
print(f"{{name}}: queued")
"""


class UnknownAgentKind(ScopewatchError):
    """An agent kind that is neither scripted, a model, ``cmd:...`` nor a shipped adapter."""


def is_external(kind: str) -> bool:
    """Whether ``kind`` names an external agent (``cmd:...`` or ``<adapter>:<model>``)."""
    head = kind.split(":", 1)[0]
    return kind.startswith("cmd:") or head in ADAPTERS or product_for(head) is not None


def adapter_for(kind: str) -> tuple[AdapterSpec, str]:
    """The adapter and the model (``""`` for ``cmd:``) of an external agent kind."""
    head, _, rest = kind.partition(":")
    if head == "cmd":
        if not rest.strip():
            raise UnknownAgentKind("cmd: needs a command line, e.g. --owner cmd:'my-agent --yes'")
        return AdapterSpec(name="cmd", command=rest), ""
    if head in ADAPTERS:
        if not rest.strip():
            raise UnknownAgentKind(f"{head}: needs a model, written {head}:MODEL (e.g. {head}:openai/gpt-4o-mini)")
        return ADAPTERS[head], rest
    if product_for(head) is not None:
        if not rest.strip():
            raise UnknownAgentKind(f"{head}: needs a model, written {head}:MODEL (e.g. {head}:test-model)")
        return AdapterSpec(name=head, command=head, pass_env=MODEL_KEYS, timeout=PRODUCT_TIMEOUT), rest
    raise UnknownAgentKind(f"unknown agent kind {kind!r}: use scripted, a litellm model, cmd:'...', "
                           f"or one of {', '.join([*sorted(ADAPTERS), *product_names()])} as NAME:MODEL")


def misspelt_kind(kind: str) -> str | None:
    """For a kind no provider claims that reads like a misspelt product or adapter (``codexx:m``):
    one line naming the choices; else None (not a typo of ours: the provider's error stands)."""
    head, colon, rest = kind.partition(":")
    if not colon or "/" in head:
        return None
    names = [*sorted(ADAPTERS), *product_names()]
    near = difflib.get_close_matches(head, names, n=1, cutoff=0.7)
    if not near:
        return None
    return (f"no agent product or adapter {head!r} (did you mean {near[0]}:{rest}?); they are "
            f"{', '.join(names)}, each as NAME:MODEL")


def check_credentials(kind: str, api_base: str | None, environ: dict[str, str] | None = None) -> None:
    """Fail in one line when an external agent cannot reach its model: an adapter's litellm model
    without its key, a product without its key and no ``--api-base`` (a product's model name is its
    own, not a litellm string)."""
    from engine.llm.secrets import check_model_credentials

    spec, model = adapter_for(kind)
    product = product_for(spec.name) if spec.name not in ADAPTERS else None
    if product is None:
        if model:
            check_model_credentials(model, api_base)
        return
    host = os.environ if environ is None else environ
    if not api_base and not host.get(product.key_env):
        raise ScopewatchError(f"{spec.name}:{model}: set {product.key_env} (its model's key), or give --api-base "
                              "for a server that needs none")


TIMED_OUT = 124
"""The exit code of a process the sandbox stopped at its timeout."""


@runtime_checkable
class ProcessToolbox(Protocol):
    """What a session's toolbox offers external agents beyond the tools (engine.session.toolbox)."""

    finished: bool

    @property
    def agent_home(self) -> Path: ...

    async def call(self, name: str, args: dict[str, Any]) -> str: ...

    async def record_call(self, name: str, args: dict[str, Any], *, ok: bool, result: str) -> None: ...

    async def run_agent_process(
        self, command: str, *, env: dict[str, str], stdin: str | None, timeout: float  # noqa: ASYNC109
    ) -> tuple[int, str]: ...


class ExternalAgent:
    """A command-line coding agent run in the sandbox (see the module docstring)."""

    def __init__(self, agent_id: str, role: AgentRole, kind: str, *, api_base: str | None = None,
                 environ: dict[str, str] | None = None, turn_timeout: float | None = None,
                 emit: Callable[[Event], Awaitable[object]] | None = None) -> None:
        self.id = agent_id
        self._emit = emit
        self.role: AgentRole = role
        self.spec, self.model = adapter_for(kind)
        if turn_timeout is not None:  # --turn-timeout: the bound of its whole run, instead of its spec's
            self.spec = self.spec.model_copy(update={"timeout": turn_timeout})
        self.product: Product | None = product_for(self.spec.name) if self.spec.name not in ADAPTERS else None
        self.kind = f"external:{self.spec.name}" + (f":{self.model}" if self.model else "")
        self.api_base = api_base
        self._environ = environ
        self.brief: EpisodeBrief | None = None
        self.exit_code: int | None = None

    async def start_episode(self, brief: EpisodeBrief) -> None:
        self.brief = brief
        self.exit_code = None

    async def end_episode(self) -> None:
        self.brief = None

    async def take_turn(self, ctx: TurnContext) -> None:
        tools = ctx.tools
        if self.brief is None or tools.finished:
            return
        if not isinstance(tools, ProcessToolbox):
            raise ScopewatchError("an external agent needs a session's toolbox (it runs a process in the sandbox)")
        prompt = self.prompt(self.brief, "\n".join(render_inbox(ctx.inbox, self.id)))
        home = tools.agent_home
        bin_dir, outbox = home / ".scopewatch" / "bin", home / ".scopewatch" / "outbox.jsonl"
        write_message_commands(bin_dir, home=home)
        homefiles.remove(home, outbox)
        homefiles.remove(home, ack_file(outbox))
        env = self.environment()
        env.update({"PATH": str(bin_dir), "SCOPEWATCH_OUTBOX": str(outbox), "SCOPEWATCH_TICKET": self.brief.ticket})
        summary = ""
        messages = MessageOutbox(outbox, tools, home=home)
        stop = asyncio.Event()
        delivering = asyncio.create_task(messages.lines.follow(stop))
        try:
            if self.product is not None:
                code, summary = await self._run_product(self.product, tools, prompt, env)
            else:
                command = self.command_line(prompt)
                code, _ = await tools.run_agent_process(
                    command, env=env, stdin=prompt if self.spec.prompt == "stdin" else None, timeout=self.spec.timeout
                )
        finally:
            stop.set()
            await delivering
        self.exit_code = code
        if not tools.finished:
            said = f": {summary.strip()[:300]}" if summary.strip() else ""
            await tools.call("finish", {"summary": f"{self.spec.name} exited with {code}{said}"})

    async def _run_product(self, product: Product, tools: ProcessToolbox, prompt: str,
                           env: dict[str, str]) -> tuple[int, str]:
        """Run an agent product, its calls recorded as they happen (engine.agents.products.run)."""
        host = dict(os.environ if self._environ is None else self._environ)

        async def run(command: str, extra: dict[str, str]) -> tuple[int, str]:
            return await tools.run_agent_process(command, env=extra, stdin=None, timeout=self.spec.timeout)

        async def record(call: ProductCall) -> None:
            await tools.record_call(call.tool, {**call.args, "via": product.name}, ok=call.ok, result=call.result)

        # Its key comes from the host's variable it names and nowhere else (not the others' keys).
        keep = {k: v for k, v in env.items() if k not in MODEL_KEYS}
        result = await run_product(product, model=self.model, api_base=self.api_base, prompt=prompt,
                                   home=tools.agent_home, host_env=host, extra_env=keep, run=run, record=record)
        if self._emit is not None:  # its model calls, as its own log reports them (tokens only)
            episode = self.brief.episode if self.brief is not None else 0
            for used in result.model_calls:
                await self._emit(ModelCalled(actor=self.id, model=self.model, prompt_tokens=used.prompt_tokens,
                                             completion_tokens=used.completion_tokens, episode=episode))
        if result.failed:
            await self._product_failed(product, result)
        return result.exit_code, result.final

    async def _product_failed(self, product: Product, result: ProductResult) -> None:
        """A product that failed before its model ever answered had a dead endpoint (refused, a bad key,
        a rate limit or a stream it could not read to the end, no answer in time): as for an LLM agent,
        the session stops (:class:`~engine.llm.errors.ModelUnreachable`), nothing is scored. One that
        failed after is scored on what it did, its failure said: a fatal ``AgentErrored`` and a line on
        stderr."""
        where = f" at {self.api_base}" if self.api_base else ""
        said = f": {result.failure}" if result.failure else ""
        timed_out = " (stopped at its --turn-timeout)" if result.exit_code == TIMED_OUT else ""
        if not result.answered:
            raise ModelUnreachable(redact(
                f"{self.id}'s {product.name} with model {self.model}{where} exited with {result.exit_code}"
                f"{timed_out} before any answer of its model{said}")[:400])
        line = redact(f"{self.id}'s {product.name} ({self.model}{where}) failed after its model answered: exited "
                      f"with {result.exit_code}{timed_out}{said}")[:400]
        _log.warning("scopewatch: warning: %s; what it did is scored", line)  # stderr (logging's last resort)
        if self._emit is not None:
            episode = self.brief.episode if self.brief is not None else 0
            await self._emit(AgentErrored(actor=self.id, error="product_failed", message=line, episode=episode,
                                          fatal=True))

    def command_line(self, prompt: str) -> str:
        """The adapter's command line, filled in (and the prompt appended, for ``argument``)."""
        extra = self.spec.api_base_args if self.api_base else ""
        line = self.spec.command.replace("{api_base_args}", extra)
        line = line.replace("{model}", shlex.quote(self.model)).replace("{api_base}", shlex.quote(self.api_base or ""))
        if self.spec.prompt == "argument":
            line = f"{line} {shlex.quote(prompt)}"
        return line

    def environment(self) -> dict[str, str]:
        """The variables the adapter names (from the host, when set) and sets."""
        host = os.environ if self._environ is None else self._environ
        env = {name: host[name] for name in self.spec.pass_env if name in host}
        env.update(self.spec.set_env)
        return env

    def prompt(self, brief: EpisodeBrief, inbox: str) -> str:
        """The ticket, who the agent is, what its team owns, how to talk to the other agent."""
        return brief.first_prompt(
            "To talk to them: `sw-post TEXT` (shared channel), `sw-dm TO TEXT` (private), "
            "`sw-request-review TO PATH < NEW_CONTENT` (ask the owner, or admin, to change a file you do not own).",
            inbox,
        )


def write_message_commands(bin_dir: Path, wait: float = ACK_WAIT, *, home: Path | None = None) -> None:
    """Put ``sw-post``, ``sw-dm`` and ``sw-request-review`` in ``bin_dir`` (Python scripts); each waits
    up to ``wait`` seconds for the engine's acknowledgement (0: it says ``queued`` at once). ``home``:
    the agent's HOME (default: two folders up, ``HOME/.scopewatch/bin``), below which no link is followed
    (:mod:`engine.agents.homefiles`)."""
    top = bin_dir.parent.parent if home is None else home
    for name, (tool, fields) in MESSAGE_COMMANDS.items():
        body = _MESSAGE_SCRIPT.format(name=name, tool=tool, fields=fields, wait=wait)
        homefiles.write_file(top, bin_dir / name, f"#!{sys.executable} -I\n" + body, 0o755)


def ack_file(outbox: Path) -> Path:
    """Where the engine acknowledges what it delivered from ``outbox`` (the byte offset, as text)."""
    return outbox.with_name(outbox.name + ".ack")


def outbox_item(line: str) -> dict[str, Any] | None:
    """One outbox line as a tool call (None for a line that is none); a review request's new content
    becomes one whole-file edit."""
    try:
        item = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(item, dict) or item.get("tool") not in {t for t, _ in MESSAGE_COMMANDS.values()}:
        return None
    raw = item.get("args")
    given = {k: redact(str(v)) for k, v in (raw if isinstance(raw, dict) else {}).items()}
    args: dict[str, Any] = dict(given)
    if item["tool"] == "request_review":
        edit = {"path": given.get("path", ""), "old": given.get("old", ""), "new": given.get("new", "")}
        args = {"to": given.get("to", "admin"), "description": f"change {edit['path']}", "edits": [edit]}
    return {"tool": item["tool"], "args": args}


class MessageOutbox:
    """An external agent's outbox, followed while its process runs: each message is delivered as its
    tool call the moment its line is complete, then acknowledged."""

    def __init__(self, path: Path, tools: ProcessToolbox, *, home: Path | None = None) -> None:
        self.tools = tools
        self.home = path.parent if home is None else home
        self.ack = ack_file(path)
        self.lines = LineFollower(path, self._deliver, root=self.home)

    async def _deliver(self, line: str) -> None:
        item = outbox_item(line)
        if item is not None:
            await self.tools.call(item["tool"], item["args"])
        # As root, in a folder the agent writes: never through a link it made (homefiles).
        homefiles.write_file(self.home, self.ack, str(self.lines.consumed))
