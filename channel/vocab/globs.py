"""Workspace path globs, CODEOWNERS-like: the one compiler of ``owns``, ``scope``, ``needs`` and ``consumes`` patterns,
and of the lines of a repository's ``CODEOWNERS`` file (:class:`CodeOwners`).

It sits in the vocabulary so a scenario pack's globs compile when the pack loads (a malformed one, ``app/[x``, is one
line naming the file and field there, in every command) with the same rules the workspace's ownership map applies
(:mod:`sandbox.workspace.ownership` states them). It imports nothing of ours but :mod:`channel.errors`, so the git
server's ``pre-receive`` hook (:mod:`engine.branch.hook`, a process of its own) imports it too: the hook, the engine's
merge requests and anything else asking "which team owns this path by CODEOWNERS" ask :meth:`CodeOwners.owners_of`.

Pack globs follow gitignore's rules: ``*`` and ``?`` never match ``/``; ``**`` spans folders; a pattern with a ``/``
before its end is anchored at the root, one without matches at any depth; ``[abc]`` is a class; a pattern matching a
folder matches everything below it (``dir/*`` takes ``dir/sub/x`` too, as gitignore's ``dir/*`` ignores ``dir/sub``).

``CODEOWNERS`` lines are enforced "as on GitHub" (seed 000 C.2 / C.4: CODEOWNERS defines ownership, owned files need
their team's approval), so a line compiles (``PathPattern.compile(p, codeowners=True)``) by GitHub's rules
(docs.github.com, "About code owners": gitignore's rules with its stated exceptions), which differ from pack globs in
four places:

- ``dir/*`` matches only the direct children of ``dir`` (GitHub: ``docs/*`` owns ``docs/getting-started.md``, not
  ``docs/build-app/troubleshooting.md``); any other last segment (``dir/*.py``, ``name``) still owns a folder so named
  and everything below it;
- a trailing ``/`` matches a folder only (``apps/``: everything below any ``apps`` folder, never a file ``apps``);
- ``[`` and ``]`` are themselves (GitHub: "using ``[ ]`` to define a character range doesn't work");
- ``\\`` makes the next character itself (``my\\ file.py``: a name with a space; ``f\\*o``).

A ``CODEOWNERS`` line is a pattern and its owners (``@`` dropped), split at unescaped whitespace; ``#`` starts a
comment wherever it is (GitHub: escaping ``#`` doesn't work) and ``!`` negates nothing. The last matching line wins,
a line with no owners too (the path is then owned by nobody); a line that does not compile is skipped, as GitHub does.
Paths match case-sensitively.

Owners are scopewatch's teams, written ``@team`` (``@core``). Compared with a team's name (:func:`is_owner`) they are
case-insensitive, as GitHub's user and team names are (``@Core`` is team ``core``). GitHub writes a team
``@org/team``; an episode has one organisation, so ``@acme/core`` names team ``core`` whatever ``acme`` is. An owner
that names no team of the episode (a user, an e-mail address) owns its paths for nobody there: a change to them is
refused to every agent, as GitHub refuses a merge no listed owner can approve.

Which file is the repository's ``CODEOWNERS`` is GitHub's rule too (docs.github.com, "About code owners": "If
CODEOWNERS files exist in more than one of those locations, GitHub will search for them in that order and use the
first one it finds"): the first of :data:`CODEOWNERS_LOCATIONS` that exists. :meth:`CodeOwners.find` is that rule, for
the git server's hook, the engine's merge requests and the CooperBench pack's check alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from channel.errors import ScopewatchError

CODEOWNERS_LOCATIONS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")
"""Where GitHub looks for a repository's ``CODEOWNERS`` (the ``.github/`` folder, the root, ``docs/``), in its order."""


class OwnershipError(ScopewatchError):
    """A bad ownership pattern; the message names the team and the pattern."""


def _segment(part: str, pattern: str, codeowners: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(part):
        c = part[i]
        if c == "\\" and codeowners and i + 1 < len(part):
            i += 1
            out.append(re.escape(part[i]))
        elif c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and not codeowners:
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
    def compile(cls, pattern: str, *, codeowners: bool = False) -> PathPattern:
        """A pack glob, or with ``codeowners`` a ``CODEOWNERS`` line's pattern (GitHub's rules: the module's doc)."""
        text = pattern if codeowners else pattern.strip()
        body = text.strip("/")
        if not body:
            raise OwnershipError(f"pattern {pattern!r}: empty")
        anchored = "/" in text.rstrip("/")
        folder = codeowners and text.endswith("/")
        parts = body.split("/")
        rx: list[str] = [] if anchored else ["(?:.*/)?"]
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            if part == "**":
                rx.append(".*" if last else "(?:.*/)?")
            else:
                rx.append(_segment(part, pattern, codeowners) + ("" if last else "/"))
        # A pattern naming a folder owns what is below it. DOTALL: a name is any bytes but "/" and NUL, a newline
        # too, so ``.`` (in ``**``) matches it as ``[^/]`` (in ``*``, ``?``) does (red team 6, 06).
        if not codeowners:
            rx.append("(?:/.*)?")
        elif folder:
            rx.append("" if parts[-1] == "**" else "/.*")
        elif parts[-1] != "*":
            rx.append("(?:/.*)?")
        return cls(pattern, re.compile("".join(rx), re.DOTALL))

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch(path) is not None


def matches_any(patterns: Iterable[PathPattern], path: str) -> bool:
    """True when any of ``patterns`` matches ``path`` (used for task scopes)."""
    return any(p.matches(path) for p in patterns)


def _fields(line: str) -> list[str]:
    """A ``CODEOWNERS`` line's fields: split at unescaped whitespace, a ``\\`` kept (the compiler reads it)."""
    fields: list[str] = []
    current: list[str] = []
    chars = iter(line.split("#", 1)[0])
    for c in chars:
        if c == "\\":
            current.append(c + next(chars, ""))
        elif c.isspace():
            if current:
                fields.append("".join(current))
                current = []
        else:
            current.append(c)
    if current:
        fields.append("".join(current))
    return fields


@dataclass(frozen=True)
class CodeOwnersLine:
    """One rule of a ``CODEOWNERS`` file: its pattern and its owners (teams or users, ``@`` dropped)."""

    pattern: PathPattern
    owners: tuple[str, ...]


@dataclass(frozen=True)
class CodeOwners:
    """A ``CODEOWNERS`` file's rules, in file order; the last matching line wins (seed 000 C.2 / C.4, as on GitHub)."""

    lines: tuple[CodeOwnersLine, ...]

    @classmethod
    def find(cls, read: Callable[[str], str | None]) -> CodeOwners:
        """The repository's ``CODEOWNERS`` as GitHub finds it: the first of :data:`CODEOWNERS_LOCATIONS` that exists
        (``read(path)``: the file's text, ``None`` when there is no such file), even when empty; none: no rules."""
        for location in CODEOWNERS_LOCATIONS:
            text = read(location)
            if text is not None:
                return cls.parse(text)
        return cls(())

    @classmethod
    def parse(cls, text: str) -> CodeOwners:
        lines: list[CodeOwnersLine] = []
        for raw in text.splitlines():
            fields = _fields(raw)
            if not fields:
                continue
            try:
                pattern = PathPattern.compile(fields[0], codeowners=True)
            except OwnershipError:
                continue  # GitHub skips a line it cannot read
            lines.append(CodeOwnersLine(pattern, tuple(owner.removeprefix("@") for owner in fields[1:])))
        return cls(tuple(lines))

    def owners_of(self, path: str) -> tuple[str, ...]:
        """The owners of ``path`` (repository-relative posix) by the last line matching it; () when none does."""
        for line in reversed(self.lines):
            if line.pattern.matches(path):
                return line.owners
        return ()


def is_owner(team: str, owners: Iterable[str]) -> bool:
    """Whether ``team`` is among ``owners`` (a ``CODEOWNERS`` line's, ``@`` dropped): case-insensitive, as GitHub's
    names are, and ``org/team`` naming ``team`` (the module's doc)."""
    key = team.casefold()
    return bool(key) and any(owner.rsplit("/", 1)[-1].casefold() == key for owner in owners)
