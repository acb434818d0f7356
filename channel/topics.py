"""The topic tree: a public, versioned interface (also the MQTT topics, under ``scopewatch/v1``).

Topics are relative to a session: ``events/<Kind>``, ``channel/shared``, ``channel/dm/<agent>``,
``cmd/<Kind>``, ``presence/<participant>``. The MQTT bus prefixes ``scopewatch/v1/<session>/``.
Patterns use MQTT wildcards: ``+`` one level, ``#`` the rest.
"""

from __future__ import annotations

from functools import lru_cache

from channel.codec import Message
from channel.commands import _Command
from channel.events import MessagePosted, PresenceChanged

ROOT = "scopewatch/v1"
ALL = "#"
EVENTS = "events/#"
COMMANDS = "cmd/#"


def topic_for(message: Message) -> str:
    """The session-relative topic a message is published on."""
    if isinstance(message, _Command):
        return f"cmd/{message.kind}"
    if isinstance(message, MessagePosted):
        return f"events/MessagePosted/{'shared' if message.to is None else 'dm/' + message.to}"
    if isinstance(message, PresenceChanged):
        return f"presence/{message.participant}"
    return f"events/{message.kind}"


@lru_cache(maxsize=4096)
def matches(pattern: str, topic: str) -> bool:
    """MQTT topic matching: ``+`` matches one level, a trailing ``#`` matches any remainder."""
    p_parts = pattern.split("/")
    t_parts = topic.split("/")
    for i, p in enumerate(p_parts):
        if p == "#":
            return True
        if i >= len(t_parts):
            return False
        if p != "+" and p != t_parts[i]:
            return False
    return len(p_parts) == len(t_parts)


def absolute(session: str, topic: str) -> str:
    """The full MQTT topic for a session-relative one."""
    return f"{ROOT}/{session}/{topic}"
