"""scopewatch's Textual themes: dark (default), light, high contrast and colour-blind safe.

Every theme defines the same extra variables, so widget CSS and the per-team colouring never
name a colour directly:

- ``team-1`` .. ``team-6``: the colour of each team, by its position in the session's team list;
- ``team-absent``: the absent teams (they never act; harm lands on them);
- ``favor``, ``harm``, ``dm``: what marks a favor, a harm and a private message.

Themes are plain :class:`textual.theme.Theme` objects (UI side: only tui/ and themes/ import
textual); :func:`register_all` registers them on an app.
"""

from __future__ import annotations

from typing import Protocol

from textual.theme import Theme

from channel.errors import ScopewatchError

TEAM_SLOTS = 6
DEFAULT_THEME = "scopewatch-dark"


def _vars(teams: tuple[str, str, str, str, str, str], absent: str, favor: str, harm: str, dm: str) -> dict[str, str]:
    variables = {f"team-{i}": colour for i, colour in enumerate(teams, 1)}
    variables.update({"team-absent": absent, "favor": favor, "harm": harm, "dm": dm})
    return variables


DARK = Theme(
    name="scopewatch-dark",
    primary="#4C9BE8",
    secondary="#2D5F8B",
    accent="#F0A23B",
    warning="#F0A23B",
    error="#E5534B",
    success="#57AB5A",
    foreground="#D7DCE2",
    background="#14171C",
    surface="#1C2128",
    panel="#22272E",
    dark=True,
    variables=_vars(
        ("#6CB6FF", "#B083F0", "#57AB5A", "#E0823D", "#39C5CF", "#DB61A2"),
        absent="#8B949E",
        favor="#F0A23B",
        harm="#E5534B",
        dm="#C297FF",
    ),
)

LIGHT = Theme(
    name="scopewatch-light",
    primary="#0969DA",
    secondary="#54AEFF",
    accent="#BF8700",
    warning="#9A6700",
    error="#CF222E",
    success="#1A7F37",
    foreground="#1F2328",
    background="#FFFFFF",
    surface="#F6F8FA",
    panel="#EAEEF2",
    dark=False,
    variables=_vars(
        ("#0550AE", "#8250DF", "#116329", "#BC4C00", "#1B7C83", "#BF3989"),
        absent="#6E7781",
        favor="#9A6700",
        harm="#CF222E",
        dm="#8250DF",
    ),
)

HIGH_CONTRAST = Theme(
    name="scopewatch-contrast",
    primary="#FFFFFF",
    secondary="#FFFF00",
    accent="#FFFF00",
    warning="#FFFF00",
    error="#FF4040",
    success="#00FF00",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#1A1A1A",
    dark=True,
    luminosity_spread=0.3,
    text_alpha=1.0,
    variables=_vars(
        ("#00FFFF", "#FF00FF", "#00FF00", "#FFFF00", "#FFFFFF", "#FF8000"),
        absent="#C0C0C0",
        favor="#FFFF00",
        harm="#FF4040",
        dm="#FF00FF",
    ),
)

# Okabe-Ito: distinguishable with the common colour-vision deficiencies; harm vs success never
# relies on red vs green alone (vermillion vs bluish green, and the screen also uses symbols).
COLOUR_BLIND = Theme(
    name="scopewatch-cb",
    primary="#0072B2",
    secondary="#56B4E9",
    accent="#E69F00",
    warning="#E69F00",
    error="#D55E00",
    success="#009E73",
    foreground="#E8E8E8",
    background="#111111",
    surface="#1B1B1B",
    panel="#262626",
    dark=True,
    variables=_vars(
        ("#56B4E9", "#E69F00", "#009E73", "#F0E442", "#CC79A7", "#0072B2"),
        absent="#999999",
        favor="#E69F00",
        harm="#D55E00",
        dm="#CC79A7",
    ),
)

THEMES: dict[str, Theme] = {t.name: t for t in (DARK, LIGHT, HIGH_CONTRAST, COLOUR_BLIND)}
"""Every scopewatch theme by name."""

ALIASES = {"dark": DARK.name, "light": LIGHT.name, "contrast": HIGH_CONTRAST.name, "cb": COLOUR_BLIND.name}


class ThemeError(ScopewatchError):
    """A theme name that is not known; the message lists the choices."""


class _ThemeHost(Protocol):
    def register_theme(self, theme: Theme) -> None: ...


def register_all(app: _ThemeHost) -> None:
    """Register every scopewatch theme on a Textual app."""
    for theme in THEMES.values():
        app.register_theme(theme)


def resolve(name: str | None) -> str:
    """The full theme name for a name or alias (``dark``, ``scopewatch-light``, ...); a built-in
    Textual theme name passes through. Raises ThemeError naming the choices."""
    if not name:
        return DEFAULT_THEME
    if name in THEMES:
        return name
    if name in ALIASES:
        return ALIASES[name]
    from textual.theme import BUILTIN_THEMES

    if name in BUILTIN_THEMES:
        return name
    raise ThemeError(f"--theme {name!r} is not a theme; choose one of: {', '.join([*ALIASES, *THEMES])}")
