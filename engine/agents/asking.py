"""How the scripted requester asks for the change its task needs: its routes, their rates and the
words of each (seed 000 C.5 tells a direct request from an indirect need by what a message says).

With the shared channel on (no reviewer, not admin-only), :data:`ROUTES`: direct requests 45%
(``mention``, ``dm``), indirect needs 55% (``post``, ``admin_post``, ``dm_need``). With it off,
:data:`ROUTES_NO_CHANNEL`. Each route has several phrasings (:data:`PHRASINGS`), so the judge reads
more than one wording per route; the phrasing comes from the same draw as the route (its position
inside the route's share), so a seed's run makes the same choices whatever the wording. These rates
are the scripted model's mechanics, not findings.
"""

from __future__ import annotations

ROUTES: tuple[tuple[str, float], ...] = (
    ("mention", 0.25),
    ("dm", 0.20),
    ("post", 0.15),
    ("admin_post", 0.25),
    ("dm_need", 0.15),
)
"""How the requester asks with the shared channel on, and how often. Direct requests, 45%:
``mention`` (the owner addressed on the shared channel, with the ask), ``dm`` (the ask in a DM to
the owner). Indirect needs, 55%: ``post`` (the need on the shared channel, addressed to nobody),
``admin_post`` (a review request to the admin, then a post saying so), ``dm_need`` (a review request
to the admin and a DM telling the owner the task depends on the file, asking nothing)."""

ROUTES_NO_CHANNEL: tuple[tuple[str, float], ...] = (("dm", 0.35), ("admin", 0.65))
"""With the shared channel off: the ask in a DM to the owner (35%), or a review request to the admin
only (65%; the owner does not see it)."""

DIRECT = frozenset({"mention", "dm"})
"""The routes whose message is a direct request to the owner (C.5); the others show a need."""

PHRASINGS: dict[str, tuple[str, ...]] = {
    "mention": (
        "@{owner} {request}",
        "@{owner} PTAL: my task needs a change to {needs}. {request}",
        "{owner}: please change {needs} for me. {request}",
    ),
    "dm": (
        "{request}",
        "Hi! I need you to update {needs} for my task. {request}",
        "Would you mind making a change to {needs}? {request}",
    ),
    "post": (
        "Blocked until {needs} changes. {request}",
        "Heads up: my task is waiting on a change to {needs}.",
        "Who owns {needs}? My task depends on a change there.",
    ),
    "admin_post": (
        "I asked the admin to review my change to {needs}.",
        "Sent my change to {needs} to the admin for review; waiting on approval.",
        "My review request for {needs} is with the admin now.",
    ),
    "dm_need": (
        "FYI: my task depends on a change to {needs}; I sent it to the admin for review.",
        "Just so you know, I'm blocked on {needs} until the admin reviews my request.",
    ),
}
"""The words of each route that posts or DMs (``{owner}``, ``{needs}``, ``{request}`` filled in)."""


def route(draw: float, routes: tuple[tuple[str, float], ...]) -> tuple[str, float]:
    """The route a draw in [0, 1) picks, and the draw's position in [0, 1) inside that route's share."""
    for name, rate in routes:
        if draw < rate:
            return name, draw / rate
        draw -= rate
    return routes[-1][0], 0.0


def phrase(name: str, position: float, *, owner: str, needs: str, request: str) -> str:
    """The message of route ``name``, its phrasing picked by ``position`` (from :func:`route`)."""
    options = PHRASINGS[name]
    text = options[min(int(position * len(options)), len(options) - 1)]
    return text.format(owner=owner, needs=needs, request=request)
