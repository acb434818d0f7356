"""One product run: its HOME prepared, its process run in the sandbox, its native stream read live.

The product writes its event stream to a file in its HOME (``.scopewatch/stream.jsonl``, outside
the workspace, so the watcher and the guard never see it); while the process runs, every complete
line is read as soon as the file changes (:class:`~engine.agents.follow.LineFollower`) and the calls it completes
are recorded at once through the toolbox's ``record_call``, as ``ToolCalled`` events of the agent
with their atoms. Its shell commands also run through the shim and under the tracer (they are
programs in the jail), so the same ``rm`` is seen twice: as the product's call and as the program
the kernel ran. The stream is bounded: lines past :data:`~engine.agents.follow.MAX_LINE` bytes are skipped.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.agents import homefiles
from engine.agents.follow import LineFollower
from engine.agents.products.base import NO_KEY, STREAM_FILE, Product, ProductCall, ProductModelCall

Record = Callable[[ProductCall], Awaitable[None]]


@dataclass
class StreamReader:
    """Reads the complete lines appended to ``path`` and hands each call to ``record``."""

    product: Product
    path: Path
    record: Record
    final: str = ""
    calls: list[ProductCall] = field(default_factory=list)
    home: Path | None = None
    """The agent's HOME above ``path``: no link below it is followed."""
    answered: bool = False
    """Its model answered at least once (:meth:`~engine.agents.products.base.Product.answered`)."""
    failure: str = ""
    """The last failure its stream reported (:meth:`~engine.agents.products.base.Product.failure`)."""

    def __post_init__(self) -> None:
        self.lines = LineFollower(self.path, self._line, root=self.home)

    async def _line(self, line: str) -> None:
        for call in self.product.read_line(line):
            self.calls.append(call)
            await self.record(call)
        event = _event(line)
        if event is not None:
            text = self.product.final_text(event)
            if text is not None:
                self.final = text
            self.answered = self.answered or self.product.answered(event)
            self.failure = self.product.failure(event) or self.failure

    async def follow(self, stop: asyncio.Event) -> None:
        """Drain on every change of the stream until ``stop`` is set, then once more."""
        await self.lines.follow(stop)


def _event(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


@dataclass(frozen=True)
class ProductResult:
    exit_code: int
    final: str
    calls: tuple[ProductCall, ...]
    answered: bool = False
    """Its model answered at least once: with none, and a failed run, its endpoint is dead."""
    failure: str = ""
    """What went wrong, in its words (its stream's last failure, else the end of its output)."""
    model_calls: tuple[ProductModelCall, ...] = ()
    """Its model calls, as its own log reports them (:meth:`~engine.agents.products.base.Product.model_calls`)."""

    @property
    def failed(self) -> bool:
        """It exited non-zero (a timeout too: 124)."""
        return self.exit_code != 0


RunProcess = Callable[[str, dict[str, str]], Awaitable[tuple[int, str]]]


async def run_product(product: Product, *, model: str, api_base: str | None, prompt: str, home: Path,
                      host_env: dict[str, str], extra_env: dict[str, str], run: RunProcess,
                      record: Record) -> ProductResult:
    """Run ``product`` once (see the module docstring); ``run`` runs a shell line in the sandbox with
    the given variables, ``record`` records one projected call."""
    product.setup_home(home, model, api_base)
    stream = home / ".scopewatch" / STREAM_FILE
    homefiles.make_folder(home, stream.parent)  # as root in the agent's HOME: no link followed
    homefiles.remove(home, stream)
    key = host_env.get(product.key_env) or NO_KEY
    env = {**product.model_env(api_base, key), **extra_env}
    reader = StreamReader(product, stream, record, home=home)
    stop = asyncio.Event()
    follower = asyncio.create_task(reader.follow(stop))
    before = product.logs(home)
    try:
        code, output = await run(product.command(model, prompt, str(stream)), env)
    finally:
        stop.set()
        await follower
    for call in product.refused(home, before):  # what it refused itself and its stream leaves out
        reader.calls.append(call)
        await record(call)
    said = reader.failure or _last_line(output)
    used = tuple(product.model_calls(home, before))
    return ProductResult(code, reader.final, tuple(reader.calls), reader.answered, said, used)


def _last_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else ""
