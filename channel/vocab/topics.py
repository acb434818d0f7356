"""The topic tree's names: a public, versioned interface (also the MQTT topics, under ``scopewatch/v1``).

Topics are relative to a session: ``events/<Kind>``, ``events/MessagePosted/shared``,
``events/MessagePosted/dm/<agent>``, ``events/batch`` (several events in one message: :data:`BATCH`),
``cmd/<Kind>``, ``presence/<participant>``. The MQTT bus
prefixes ``scopewatch/v1/<session>/``. Patterns use MQTT wildcards: ``+`` one level, ``#`` the rest.
Every publisher and subscriber names topics through these constants and functions.
"""

from __future__ import annotations

ROOT = "scopewatch/v1"
"""The prefix of every MQTT topic (then the session id, then a session-relative topic)."""
ALL = "#"
"""Every message of a session."""
EVENTS = "events/#"
"""Every event."""
COMMANDS = "cmd/#"
"""Every command."""
PRESENCE = "presence/#"
"""Every participant's presence."""
BATCH = "events/batch"
"""Several consecutive events in one message, one JSON event per line (a served engine's outbox
sends what it holds at once so; a subscriber's bus hands each event on as if it came on its own
topic: channel.outbox, channel.inbound). Event kinds are CamelCase, so no kind's topic is this one."""


def event_topic(kind: str) -> str:
    """The topic of events of one kind (``MessagePosted`` has sub-topics below it)."""
    return f"events/{kind}"


def message_topic(to: str | None) -> str:
    """The topic of a ``MessagePosted``: the shared channel, or one agent's DMs."""
    return event_topic("MessagePosted") + ("/shared" if to is None else f"/dm/{to}")


def command_topic(kind: str) -> str:
    """The topic of commands of one kind."""
    return f"cmd/{kind}"


def presence_topic(participant: str, connection: str = "") -> str:
    """The topic of one participant's presence (retained, with a Last Will on MQTT); with ``connection``,
    of one of its connections (a member in two windows has two: one closing leaves the other's)."""
    return f"presence/{participant}" + (f"/{connection}" if connection else "")


def absolute(session: str, topic: str) -> str:
    """The full MQTT topic for a session-relative one."""
    return f"{ROOT}/{session}/{topic}"
