"""Colours as theme variables: which variable a team gets, and Rich text built from style specs
resolved against the theme in force (Rich renderables in logs and tree labels cannot read CSS
variables themselves, so widgets keep specs and re-render them when the theme changes)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text
from textual.app import App

from channel.events import TeamInfo
from themes import TEAM_SLOTS

Seg = tuple[str, str]
"""A piece of text and its style spec: a theme variable and flags, e.g. ``"team-1 bold"``,
``"error"``, ``"dim italic"``, or ``""`` for plain."""
Line = tuple[Seg, ...]

_FLAGS = {"bold", "italic", "dim", "reverse", "underline"}
_cache: dict[tuple[str, str], Style] = {}


def team_variables(teams: Iterable[TeamInfo]) -> dict[str, str]:
    """Team name -> theme variable: present teams take ``team-1``.. in order (cycling after
    TEAM_SLOTS), absent teams all take ``team-absent``."""
    slots: dict[str, str] = {}
    n = 0
    for team in teams:
        if team.absent:
            slots[team.name] = "team-absent"
        else:
            slots[team.name] = f"team-{n % TEAM_SLOTS + 1}"
            n += 1
    return slots


def style(app: App[object], spec: str) -> Style:
    """The Rich style for a spec under the app's current theme (cached per theme)."""
    key = (app.theme, spec)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    colour: str | None = None
    flags: dict[str, bool] = {}
    for token in spec.split():
        if token in _FLAGS:
            flags[token] = True
        else:
            colour = app.theme_variables.get(token, colour)
    result = Style(color=colour, **flags)  # type: ignore[arg-type]
    _cache[key] = result
    return result


def render(app: App[object], line: Iterable[Seg]) -> Text:
    """Rich text for a line of (text, spec) pieces."""
    text = Text(no_wrap=False, overflow="fold")
    for piece, spec in line:
        text.append(piece, style(app, spec) if spec else None)
    return text


def diff_lines(diff: str, limit: int | None = None, indent: str = "") -> list[Line]:
    """A unified diff as styled lines: additions in success, removals in error, hunks in accent;
    cut to ``limit`` lines with a note of how many more."""
    lines = [raw for raw in diff.splitlines() if not raw.startswith(("+++", "---"))]
    more = 0
    if limit is not None and len(lines) > limit:
        more = len(lines) - limit
        lines = lines[:limit]
    out: list[Line] = []
    for raw in lines:
        if raw.startswith("+"):
            spec = "success"
        elif raw.startswith("-"):
            spec = "error"
        elif raw.startswith("@@"):
            spec = "accent dim"
        else:
            spec = "dim"
        out.append(((indent + raw, spec),))
    if more:
        out.append(((f"{indent}… {more} more diff line(s)", "dim italic"),))
    return out
