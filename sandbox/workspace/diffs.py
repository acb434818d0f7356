"""The one way the sandbox renders a change: a git-style unified diff of two file contents."""

from __future__ import annotations

import difflib

LINK_MARK = b"\0scopewatch-symlink\0"
"""Prefix of a cached entry that is a symlink (the rest is its target); file contents never start
with a NUL byte followed by this marker in practice, and a NUL makes a file binary anyway."""


def link_entry(target: str) -> bytes:
    return LINK_MARK + target.encode("utf-8", "surrogateescape")


def _lines(data: bytes | None) -> list[str] | None:
    """Text lines, or None for binary content."""
    if data is None:
        return []
    if data.startswith(LINK_MARK):
        return [f"symlink -> {data[len(LINK_MARK) :].decode('utf-8', 'replace')}\n"]
    if b"\0" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


def unified_diff(path: str, old: bytes | None, new: bytes | None) -> str:
    """The unified diff from ``old`` to ``new`` content of ``path`` (None = the file is absent),
    with ``a/``/``b/`` headers and ``/dev/null`` for an added or deleted file."""
    a, b = _lines(old), _lines(new)
    left = f"a/{path}" if old is not None else "/dev/null"
    right = f"b/{path}" if new is not None else "/dev/null"
    if a is None or b is None:
        return "" if old == new else f"Binary files {left} and {right} differ\n"
    return "".join(difflib.unified_diff(a, b, left, right))
