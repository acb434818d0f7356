"""A git config file's entries read in-process, for the plain files git and ``git init`` write.

The engine reads config as ``git config --file - --no-includes --list`` has it (:mod:`sandbox.workspace.gitconfig`);
one subprocess per file made a workspace of 800 nested repositories cost seconds per command (red team round 4,
10). :func:`plain_entries` gives the same entries for a file in a strict subset of git's syntax (ASCII, one
``[section]`` / ``[section "sub"]`` header or ``key`` / ``key = value`` per line, values without quotes or
backslashes, ``#`` / ``;`` comments) and None for anything else, which is then read by git itself: a file this
reader gets wrong is one it does not read.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"\[([A-Za-z0-9.-]+)(?:[ \t]+\"([^\"\\\n]+)\")?\][ \t]*(?:[#;].*)?")
_KEY = re.compile(r"([A-Za-z][A-Za-z0-9-]*)[ \t]*(?:=([^\"\\\n]*))?")
_COMMENT = re.compile(r"[#;]")
_PLAIN = re.compile(rb"[\t\n\x20-\x7e]*")


def plain_entries(data: bytes) -> list[tuple[str, str]] | None:
    """``data``'s entries (key as git lists it: section and name lower-case, a subsection as written; a key with no
    ``=``: an empty value), in order; None unless every line is of the plain subset (see the module)."""
    if not _PLAIN.fullmatch(data):
        return None
    found: list[tuple[str, str]] = []
    section = ""
    for raw in data.decode("ascii").split("\n"):
        line = raw.lstrip(" \t")
        if not line or line[0] in "#;":
            continue
        if line[0] == "[":
            header = _HEADER.fullmatch(line)
            if header is None:
                return None
            name, sub = header.group(1).lower(), header.group(2)
            if name.startswith(".") or name.endswith(".") or ".." in name:
                return None
            section = name if sub is None else f"{name}.{sub}"
            continue
        key = _KEY.fullmatch(line)
        if key is None or not section:
            return None
        value = key.group(2)
        found.append((f"{section}.{key.group(1).lower()}", "" if value is None else _value(value)))
    return found


def _value(text: str) -> str:
    """A plain value as git reads it: up to a comment, outer blanks dropped, each inner blank one space."""
    cut = _COMMENT.search(text)
    if cut is not None:
        text = text[: cut.start()]
    return "".join(" " if c == "\t" else c for c in text.strip(" \t"))
