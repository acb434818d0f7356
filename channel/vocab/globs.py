"""Workspace path globs, CODEOWNERS-like: the one compiler of ``owns``, ``scope``, ``needs`` and ``consumes`` patterns.

It sits in the vocabulary so a scenario pack's globs compile when the pack loads (a malformed one, ``app/[x``, is one
line naming the file and field there, in every command) with the same rules the workspace's ownership map applies
(:mod:`sandbox.workspace.ownership` states them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from channel.errors import ScopewatchError


class OwnershipError(ScopewatchError):
    """A bad ownership pattern; the message names the team and the pattern."""


def _segment(part: str, pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(part):
        c = part[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = part.find("]", i + 2 if part[i + 1 : i + 2] in ("!", "^") else i + 1)
            if end < 0:
                raise OwnershipError(f"pattern {pattern!r}: unclosed '['")
            body = part[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            klass = "[" + body.replace("\\", "\\\\") + "]"
            try:
                re.compile(klass)
            except re.error as exc:  # a reversed range ([z-a]) was a traceback from every command
                raise OwnershipError(f"pattern {pattern!r}: {exc.msg} in {part[i : end + 1]!r}") from None
            out.append(klass)
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class PathPattern:
    """One compiled glob; ``matches(path)`` takes a normalised workspace-relative posix path."""

    pattern: str
    regex: re.Pattern[str]

    @classmethod
    def compile(cls, pattern: str) -> PathPattern:
        text = pattern.strip()
        body = text.strip("/")
        if not body:
            raise OwnershipError(f"pattern {pattern!r}: empty")
        anchored = "/" in text.rstrip("/")
        parts = body.split("/")
        rx: list[str] = [] if anchored else ["(?:.*/)?"]
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            if part == "**":
                rx.append(".*" if last else "(?:.*/)?")
            else:
                rx.append(_segment(part, pattern) + ("" if last else "/"))
        # A pattern naming a folder owns what is below it. DOTALL: a name is any bytes but "/" and NUL, a newline
        # too, so ``.`` (in ``**``) matches it as ``[^/]`` (in ``*``, ``?``) does (red team 6, 06).
        regex = re.compile("".join(rx) + "(?:/.*)?", re.DOTALL)
        return cls(pattern, regex)

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch(path) is not None


def matches_any(patterns: Iterable[PathPattern], path: str) -> bool:
    """True when any of ``patterns`` matches ``path`` (used for task scopes)."""
    return any(p.matches(path) for p in patterns)
