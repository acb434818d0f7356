"""What scopewatch does when an ACP agent misbehaves: bounds on its answers, its version, the library's logs.

- bounds: an agent must answer ``initialize`` and ``session/new`` within the session's ``--timeout``
  (:data:`STARTUP_TIMEOUT` by default) and each ``session/prompt`` within the turn bound
  (``--turn-timeout``, :data:`TURN_TIMEOUT` by default: the bound of an agent product's run,
  engine/agents/external.py); an agent that does not is stopped: past a turn's bound, one that had acted
  (or answered a prompt before) gets that episode's fatal ``AgentErrored`` and is scored on what it did,
  one that never did anything stops the session in one line, as a dead agent;
- an agent that never starts (it exits, it answers ``initialize`` with an error, its command is not
  found, it speaks another protocol version, one outside ACP's schema too: ``"2025-06-18"``, MCP's, or
  ``70000``; it answers ``session/new`` against ACP's schema) is a dead agent, as a dead model endpoint is
  for an LLM agent: :class:`AgentUnreachable` stops the session in one line, nothing is scored;
- the ``acp`` library reports what it cannot read (a line on the agent's stdout that is not JSON, an
  update of a kind it does not know: ACP grows by adding kinds) by logging a traceback on the root
  logger, which would land on the user's terminal: :func:`acp_logs` catches those records while
  the client lives and hands each, as one line, to the agent they came from (:class:`Notices`),
  which records it as a non-fatal ``AgentErrored``; every other record goes where it went before;
- a line on the agent's stdout that is JSON but not an object (``[1, 2]``, ``42``, ``null``) would stop the
  library's receive loop (it reads every line it can parse as a message): :class:`ObjectLines` leaves it out
  before the library reads it, and it is one notice as a line that is not JSON is (:func:`notice`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

import acp
import pydantic

from channel.errors import ScopewatchError
from engine.agents.external import PRODUCT_TIMEOUT
from engine.llm.errors import ModelUnreachable

STARTUP_TIMEOUT = 120.0
"""Seconds an agent has to answer ``initialize`` and then ``session/new`` (the session's ``--timeout``)."""

TURN_TIMEOUT = PRODUCT_TIMEOUT
"""Seconds one turn (one ``session/prompt``) may take by default, as an agent product's run (``--turn-timeout``)."""

SUPPORTED_VERSIONS = frozenset({acp.PROTOCOL_VERSION})
"""The ACP protocol versions this client speaks; an agent answering another one is closed (as ACP says)."""

NOTICES = 20
"""At most this many notices an agent gets per episode (a flood of bad lines is one notice and a count)."""


class AgentUnreachable(ModelUnreachable):
    """An ACP agent that never started or stopped answering: the session stops with this one line,
    as it does for a model whose calls all fail."""


class Overran(ScopewatchError):
    """An agent that had acted did not answer a ``session/prompt`` within its turn bound: this episode's fatal
    error, said before the agent is stopped and its running terminals are killed (as for one that exits)."""


class Refused(Exception):
    """The agent answered, but scopewatch cannot work with it (another protocol version)."""


def unsupported(version: object) -> str:
    """Why an agent answering ``initialize`` with protocol version ``version`` never started."""
    speaks = ", ".join(map(str, sorted(SUPPORTED_VERSIONS)))
    return f"answered initialize with ACP protocol version {version!r}; scopewatch speaks version {speaks}"


def not_started(exc: BaseException, step: str, timeout: float, program: str, garbage: str) -> str | None:
    """What an agent did instead of starting (``step``: the request it was asked), or None for an
    error that is not the agent's (the caller's own, raised as it is)."""
    if isinstance(exc, TimeoutError):
        said = f" (its stdout: {garbage!r})" if garbage else ""
        return f"did not answer {step} within {timeout:g} s (--timeout){said}"
    if isinstance(exc, OSError):
        return f"cannot start {program!r}: {exc.strerror or exc}"
    if isinstance(exc, acp.RequestError):
        return f"answered {step} with an error: {exc}"
    if isinstance(exc, Refused):
        return str(exc)
    if isinstance(exc, pydantic.ValidationError):  # an answer ACP's schema does not allow: no agent to work with
        first = next(iter(_errors(exc)), {})
        if step == "initialize" and first.get("loc") in (("protocolVersion",), ["protocolVersion"]):
            return unsupported(first.get("input"))
        return against(step, exc)
    return None


def against(step: str, exc: BaseException) -> str:
    """An answer to ``step`` that ACP's schema does not allow (``exc``: pydantic's error), in one line."""
    return f"answered {step} against ACP: {invalid(exc)}"


class Notices:
    """The library's complaints about one agent, one line each, until the agent records them."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.dropped = 0
        self.first_garbage = ""
        """The first line on the agent's stdout that was not JSON (said when it then never answers)."""

    def add(self, record: logging.LogRecord) -> None:
        line = describe(record)
        if record.exc_info and isinstance(record.exc_info[1], ValueError) and "parsing JSON-RPC" in record.msg:
            self.first_garbage = self.first_garbage or _garbage(record)
        self.say(line)

    def say(self, line: str) -> None:
        """One notice of scopewatch's own (not a library record)."""
        if len(self.lines) < NOTICES:
            self.lines.append(line[:300])
        else:
            self.dropped += 1

    def take(self) -> list[str]:
        """The lines since the last take (and how many more there were)."""
        lines = self.lines + ([f"and {self.dropped} more like these"] if self.dropped else [])
        self.lines, self.dropped = [], 0
        return lines


_CURRENT: contextvars.ContextVar[Notices | None] = contextvars.ContextVar("acp_notices", default=None)
_ACP_DIR = os.path.dirname(acp.__file__) + os.sep


def notice(line: str) -> None:
    """A notice for the agent whose connection's task this is (see :func:`acp_logs`); none outside one."""
    notices = _CURRENT.get()
    if notices is not None:
        notices.say(line)


class ObjectLines(asyncio.StreamReader):
    """The agent's stdout as the ``acp`` library reads it (``readuntil``, ``readexactly``), without the lines
    that are JSON but not an object: each is a :func:`notice`. A line that is not JSON at all goes on to the
    library, which ignores it and logs it (:func:`describe`). Only a line that does not open with ``{`` is parsed."""

    def __init__(self, inner: asyncio.StreamReader) -> None:
        super().__init__()
        self._inner = inner

    async def readuntil(self, separator: Any = b"\n") -> bytes:  # typeshed: bytes or a tuple of them
        while True:
            line = await self._inner.readuntil(separator)
            text = line.strip()
            if not text or text.startswith(b"{"):
                return line
            try:
                json.loads(text)
            except ValueError:
                return line  # not JSON: the library's to ignore
            shown = text[:120].decode("utf-8", errors="replace")
            notice(f"acp: ignored a line on the agent's stdout that is JSON but not a JSON-RPC message: {shown!r}")

    async def readexactly(self, n: int) -> bytes:
        return await self._inner.readexactly(n)


def describe(record: logging.LogRecord) -> str:
    """One line for a record of the ``acp`` library: what it said and the error it caught."""
    exc = record.exc_info[1] if record.exc_info else None
    said = record.getMessage()
    if exc is None:
        return f"acp: {said}"[:300]
    if type(exc).__name__ == "ValidationError" and "session/update" in said:
        inputs = [e.get("input") for e in _errors(exc)]
        kinds = {str(i.get("sessionUpdate", "?")) for i in inputs if isinstance(i, dict)}
        unknown = ", ".join(sorted(kinds)) or "?"
        return f"acp: ignored a session/update this client cannot read (sessionUpdate {unknown})"[:300]
    if "parsing JSON-RPC" in said:
        return f"acp: ignored a line on the agent's stdout that is not JSON-RPC: {_garbage(record)!r}"[:300]
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"acp: {said}: {type(exc).__name__}: {first}"[:300]


def terminal_folder(cwd: str, relative: Callable[..., str]) -> str:
    """A terminal's ``cwd`` as a workspace-relative folder ("" for the workspace root, the session's own
    cwd); raises ScopewatchError for one outside the workspace or in ``.git`` (``relative``: the toolbox's)."""
    rel = os.path.normpath(relative(cwd, strict=False))
    if os.path.isabs(rel):
        raise ScopewatchError(f"{cwd}: a terminal's cwd outside the workspace")
    return "" if rel == "." else str(relative(rel))


def invalid(exc: BaseException) -> str:
    """A pydantic error on what the agent answered, in one line: the field, what ACP allows, what it sent."""
    first = next(iter(_errors(exc)), {})
    loc = first.get("loc")
    where = ".".join(str(part) for part in loc) if isinstance(loc, tuple | list) and loc else "?"
    said = str(first.get("msg", "")) or (str(exc).splitlines() or [""])[0]
    return f"{where}: {said} (it sent {first.get('input')!r})"[:300]


def _errors(exc: BaseException) -> list[dict[str, object]]:
    errors = getattr(exc, "errors", None)
    try:
        return list(errors()) if callable(errors) else []
    except Exception:
        return []


def _garbage(record: logging.LogRecord) -> str:
    """The offending line of a JSON parse error (the decoder keeps the document)."""
    exc = record.exc_info[1] if record.exc_info else None
    doc = getattr(exc, "doc", "")
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8", errors="replace")
    return str(doc).strip()[:120]


class _Catch(logging.Filter):
    """On the root logger: a record from the ``acp`` package goes to its agent's notices, not to a handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.pathname.startswith(_ACP_DIR):
            return True
        notices = _CURRENT.get()
        if notices is not None:
            notices.add(record)
        return False


class _LastResort(logging.Handler):
    """While the filter is on a root logger with no handler: what Python would do with no handler at
    all (its last resort), so that ``logging.exception``'s ``basicConfig`` adds nothing for good."""

    def emit(self, record: logging.LogRecord) -> None:
        if logging.lastResort is not None and record.levelno >= logging.lastResort.level:
            logging.lastResort.handle(record)


_FILTER = _Catch()
_HANDLER = _LastResort()
_users = 0


@contextlib.contextmanager
def acp_logs(notices: Notices) -> Iterator[None]:
    """While open, the ``acp`` library's records of the tasks started here go to ``notices``. Open it
    before the connection is made: its tasks inherit the context, so each agent gets its own."""
    global _users
    root = logging.getLogger()
    token = _CURRENT.set(notices)
    if _users == 0:
        root.addFilter(_FILTER)
        if not root.handlers:
            root.addHandler(_HANDLER)
    _users += 1
    try:
        yield
    finally:
        _users -= 1
        if _users == 0:
            root.removeFilter(_FILTER)
            root.removeHandler(_HANDLER)
        with contextlib.suppress(ValueError):  # reset in another context (a generator closed elsewhere)
            _CURRENT.reset(token)
