"""Who owns which path: CODEOWNERS-like glob rules relative to the workspace root.

Pattern rules (as in CODEOWNERS / gitignore):

- ``*`` matches within one path segment, ``?`` one character, ``[abc]`` a class, ``**`` any number
  of segments (``services/**``, ``**/config.py``, ``a/**/b``);
- a pattern without a slash matches at any depth (``*.md`` owns ``docs/guide.md`` too);
- a pattern with a slash is anchored at the root (a leading ``/`` is allowed and changes nothing);
- a pattern naming a folder owns everything below it (``services/billing`` or ``services/billing/``);
- the last matching rule wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sandbox.errors import OwnershipError


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
            out.append("[" + body.replace("\\", "\\\\") + "]")
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
        # A pattern naming a folder owns what is below it.
        regex = re.compile("".join(rx) + "(?:/.*)?")
        return cls(pattern, regex)

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch(path) is not None


@dataclass(frozen=True)
class Rule:
    team: str
    pattern: PathPattern


class Ownership:
    """The ownership map of a workspace: ordered ``(team, pattern)`` rules, last match wins."""

    def __init__(self, rules: Iterable[Rule] = ()) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)

    @classmethod
    def from_teams(cls, teams: Iterable[tuple[str, Iterable[str]]] | Mapping[str, Iterable[str]]) -> Ownership:
        """Build from ``[(team, patterns), ...]`` (or a mapping); rule order is the order given."""
        pairs = teams.items() if isinstance(teams, Mapping) else teams
        rules: list[Rule] = []
        for team, patterns in pairs:
            if isinstance(patterns, str):
                raise OwnershipError(f"team {team!r}: patterns must be a list, got the string {patterns!r}")
            for pattern in patterns:
                try:
                    rules.append(Rule(team, PathPattern.compile(pattern)))
                except OwnershipError as exc:
                    raise OwnershipError(f"team {team!r}: {exc}") from None
        return cls(rules)

    @property
    def teams(self) -> tuple[str, ...]:
        """Teams in the order they first appear."""
        return tuple(dict.fromkeys(rule.team for rule in self.rules))

    def owner_of(self, path: str) -> str:
        """The team owning ``path`` (workspace-relative posix), or "" when no rule matches."""
        for rule in reversed(self.rules):
            if rule.pattern.matches(path):
                return rule.team
        return ""


def matches_any(patterns: Iterable[PathPattern], path: str) -> bool:
    """True when any of ``patterns`` matches ``path`` (used for task scopes)."""
    return any(p.matches(path) for p in patterns)
