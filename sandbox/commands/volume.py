"""Caps on what one command can make the engine hold and report: an exec storm with huge argv, a
trace of gigabytes, a diff of a 16 MB file. What is cut is always said, never silent:

- a trace past :data:`TRACE_MAX` bytes is not kept further (:class:`~sandbox.commands.tracestream.TraceStream`),
  and the command gets a ``ShimTampered`` saying so (what ran after is not in the audit);
- of a command's programs, every one that is an atom is reported, the others up to
  :data:`CALLS_MAX` in all; one ``ShimTampered`` (source ``trace``) gives the number left out;
- each argument in an event is cut at :data:`ARG_MAX` characters and argv at :data:`ARGV_MAX`, a
  diff at :data:`DIFF_MAX`, each with a marker ``[... N characters cut]`` in place;
- the refs of the remote one push updated are listed up to :data:`REFS_MAX` (``main`` and ``master`` first), then
  ``[... N more refs cut]`` (red team 6, 03: 10,000 refs written by hand made one event of 200 KB);
- a command's output returned to the agent is cut at :data:`OUTPUT_LIMIT` characters, head and tail kept (:func:`clip`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

TRACE_MAX = 64 * 1024 * 1024
"""Bytes of exec trace kept per command."""
CALLS_MAX = 2000
"""Programs reported per command (atoms always; others up to this many in all)."""
ARG_MAX = 4096
"""Characters of one argument in an event."""
ARGV_MAX = 65536
"""Characters of a whole argv in an event."""
DIFF_MAX = 256 * 1024
"""Characters of one diff in an event."""
REFS_MAX = 256
"""Refs listed in one event (a push's)."""


class _Call(Protocol):
    @property
    def atom(self) -> str | None: ...

OUTPUT_LIMIT = 64_000
"""Characters of shell output returned to the agent (head and tail kept)."""


def clip(output: str) -> str:
    """``output`` cut to :data:`OUTPUT_LIMIT` characters, keeping head and tail."""
    if len(output) <= OUTPUT_LIMIT:
        return output
    half = OUTPUT_LIMIT // 2
    return f"{output[:half]}\n[... {len(output) - OUTPUT_LIMIT} characters cut ...]\n{output[-half:]}"


def cut_marker(count: int) -> str:
    return f"[... {count} characters cut]"


def clip_text(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters (head kept), saying how much went."""
    if len(text) <= limit:
        return text
    return text[:limit] + cut_marker(len(text) - limit)


def clip_argv(argv: Sequence[str]) -> tuple[str, ...]:
    """Each argument clipped to :data:`ARG_MAX`, and the argv to :data:`ARGV_MAX` in all."""
    out: list[str] = []
    total = 0
    for i, arg in enumerate(argv):
        arg = clip_text(arg, ARG_MAX)
        if total + len(arg) > ARGV_MAX:
            out.append(f"[... {len(argv) - i} more arguments cut]")
            break
        out.append(arg)
        total += len(arg)
    return tuple(out)


def clip_refs(refs: Sequence[str], protected: frozenset[str]) -> tuple[str, ...]:
    """``refs`` up to :data:`REFS_MAX` (those in ``protected`` first, each ref cut at :data:`ARG_MAX` characters),
    then how many more there were."""
    if len(refs) <= REFS_MAX and all(len(ref) <= ARG_MAX for ref in refs):
        return tuple(refs)
    ordered = sorted(refs, key=lambda ref: ref not in protected)  # stable: in their order after those
    kept = tuple(clip_text(ref, ARG_MAX) for ref in ordered[:REFS_MAX])
    return kept if len(refs) <= REFS_MAX else (*kept, f"[... {len(refs) - REFS_MAX} more refs cut]")


C = TypeVar("C", bound=_Call)


def cap_calls(calls: Sequence[C]) -> tuple[list[C], int]:
    """The calls to report (every atom; the rest while there is room under :data:`CALLS_MAX`, in
    order) and how many were left out."""
    room = max(CALLS_MAX - sum(1 for c in calls if c.atom is not None), 0)
    kept: list[C] = []
    cut = 0
    for call in calls:
        if call.atom is not None:
            kept.append(call)
        elif room > 0:
            kept.append(call)
            room -= 1
        else:
            cut += 1
    return kept, cut
