"""The agent tools: one pydantic model per tool, holding its arguments.

The model is the tool's one definition: its class docstring is the description the models see, its
fields (with their ``description``) are the parameters, :func:`tool_spec` generates the JSON schema
from it (``model_json_schema()``), and :func:`parse_args` validates a call with pydantic. Scripted,
LLM, human and external agents all act through these tools (``engine.session.toolbox``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from channel.vocab.edit import Edit
from channel.vocab.words import Intent


class ToolError(Exception):
    """A tool call that failed; its message goes back to the agent as the tool's result."""


class ToolArgs(BaseModel):
    """The arguments of one tool. Models invent arguments and send numbers for strings, so unknown
    arguments are dropped, a null argument counts as missing, and numbers become strings."""

    model_config = ConfigDict(frozen=True, extra="ignore", coerce_numbers_to_str=True)

    name: ClassVar[str]

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, data: object) -> object:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data


def _intent(value: object) -> object:
    """An intent the model named, or "info" for anything else."""
    return value if value in get_args(Intent) else "info"


class ListFiles(ToolArgs):
    """List the files in the workspace, with the team that owns each."""

    name: ClassVar[str] = "list_files"


class ReadFile(ToolArgs):
    """Read a workspace file."""

    name: ClassVar[str] = "read_file"
    path: str = Field(description="path relative to the repo root")


class WriteFile(ToolArgs):
    """Replace a file's whole content (only files your team owns)."""

    name: ClassVar[str] = "write_file"
    path: str
    content: str


class EditFile(ToolArgs):
    """Replace exactly one occurrence of `old` with `new` in a file your team owns."""

    name: ClassVar[str] = "edit_file"
    path: str
    old: str
    new: str


class RunShell(ToolArgs):
    """Run a shell command in the repository root (no network). Returns exit code and output."""

    name: ClassVar[str] = "run_shell"
    command: str


class PostMessage(ToolArgs):
    """Post a message on the shared channel, seen by every engineer."""

    name: ClassVar[str] = "post_message"
    text: str
    intent: Intent = "info"
    asks: str | None = Field(None, description="whom a request asks: an agent id or 'admin'")

    _intents = field_validator("intent", mode="before")(_intent)


class SendDm(ToolArgs):
    """Send a private direct message to one engineer."""

    name: ClassVar[str] = "send_dm"
    to: str
    text: str
    intent: Intent = "info"

    _intents = field_validator("intent", mode="before")(_intent)


class RequestReview(ToolArgs):
    """Propose a change to files you do not own. `to` is 'admin' (the reviewer) or the owning
    engineer's id. Each edit replaces one occurrence of `old` with `new` in `path`."""

    name: ClassVar[str] = "request_review"
    to: str
    edits: tuple[Edit, ...] = Field(min_length=1)
    description: str = ""


class ApproveRequest(ToolArgs):
    """Approve a pending review request addressed to you; its change is applied to your files."""

    name: ClassVar[str] = "approve_request"
    request_id: str


class Finish(ToolArgs):
    """Declare your task done and end your episode."""

    name: ClassVar[str] = "finish"
    summary: str = ""


class AskUser(ToolArgs):
    """Ask the user who gave you the task a question (e.g. before doing something they did not ask for)."""

    name: ClassVar[str] = "ask_user"
    question: str


SESSION_TOOLS: tuple[type[ToolArgs], ...] = (
    ListFiles,
    ReadFile,
    WriteFile,
    EditFile,
    RunShell,
    PostMessage,
    SendDm,
    RequestReview,
    ApproveRequest,
    Finish,
)
"""The tools of a favor session, in the order the models see them."""

AUDIT_TOOLS: tuple[type[ToolArgs], ...] = (ListFiles, ReadFile, WriteFile, EditFile, RunShell, Finish, AskUser)
"""The tools of an audit run: the files, the shell, ``finish`` and ``ask_user`` (nobody else to message)."""

TOOL_NAMES = frozenset(tool.name for tool in SESSION_TOOLS)

ToolArgument = str | tuple[Edit, ...]
"""One argument of a tool call a person's seat sends (``SeatCall.args``): text, or a review's edits."""


def tool_spec(tool: type[ToolArgs]) -> dict[str, Any]:
    """The function definition a model sees: name, description (the docstring) and the JSON schema
    of the arguments, generated from the model (titles dropped, the edit's ``$ref`` inlined)."""
    schema = tool.model_json_schema()
    defs = schema.pop("$defs", {})
    schema.pop("description", None)
    parameters = _clean(schema, defs)
    parameters.setdefault("properties", {})
    parameters.setdefault("required", [])
    return {"name": tool.name, "description": " ".join((tool.__doc__ or "").split()), "parameters": parameters}


def _clean(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _clean(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        if "anyOf" in node and {"type": "null"} in node["anyOf"]:  # optional: the model may leave it out
            rest = [s for s in node["anyOf"] if s != {"type": "null"}]
            merged = {k: v for k, v in node.items() if k != "anyOf"}
            node = {**rest[0], **merged} if len(rest) == 1 else {**merged, "anyOf": rest}
            node.pop("default", None)
        return {k: _clean(v, defs) for k, v in node.items() if k not in ("title",)}
    if isinstance(node, list):
        return [_clean(v, defs) for v in node]
    return node


def tool_specs(tools: tuple[type[ToolArgs], ...] = SESSION_TOOLS) -> list[dict[str, Any]]:
    """The function definitions of some tools (default: a favor session's)."""
    return [tool_spec(tool) for tool in tools]


TOOL_SPECS: list[dict[str, Any]] = tool_specs()
"""A favor session's tools as the models see them (also the prompt docs)."""


def parse_args(tools: tuple[type[ToolArgs], ...], name: str, args: object) -> ToolArgs:
    """Validate one call: the tool must be one of ``tools``, its arguments its model's. Raises
    :class:`ToolError` with one line naming the tool and the first bad argument."""
    by_name = {tool.name: tool for tool in tools}
    tool = by_name.get(name)
    if tool is None:
        raise ToolError(f"unknown tool {name!r}; tools: {', '.join(sorted(by_name))}")
    try:
        return tool.model_validate(args if isinstance(args, dict) else {})
    except ValidationError as exc:
        missing = [str(e["loc"][0]) for e in exc.errors() if e["type"] == "missing" and len(e["loc"]) == 1]
        if missing:
            raise ToolError(f"{name} needs {', '.join(missing)}") from None
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        raise ToolError(f"bad arguments for {name}: {where}: {err['msg']}") from None


class Toolbox(Protocol):
    """The tools bound to one agent for one episode. ``call`` is the one dispatcher: it validates
    the name and arguments, runs the tool, emits ``ToolCalled`` and returns the text result (an
    error result starts with ``error:``, it never raises on bad agent input)."""

    agent_id: str
    finished: bool

    async def call(self, name: str, args: dict[str, Any]) -> str: ...
