"""Who owns which path: CODEOWNERS-like glob rules relative to the workspace root.

Pattern rules (as in CODEOWNERS / gitignore):

- ``*`` matches within one path segment, ``?`` one character, ``[abc]`` a class, ``**`` any number
  of segments (``services/**``, ``**/config.py``, ``a/**/b``);
- a pattern without a slash matches at any depth (``*.md`` owns ``docs/guide.md`` too);
- a pattern with a slash is anchored at the root (a leading ``/`` is allowed and changes nothing);
- a pattern naming a folder owns everything below it (``services/billing`` or ``services/billing/``);
- the last matching rule wins.

A repository's ``CODEOWNERS`` file (CooperBench's branch episodes) is read by GitHub's variant of these rules
(``dir/*``: direct children only; no ``[ ]`` classes): :class:`channel.vocab.globs.CodeOwners` says where they differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from channel.vocab.globs import OwnershipError, PathPattern, matches_any

__all__ = ["Ownership", "PathPattern", "Rule", "matches_any"]


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
