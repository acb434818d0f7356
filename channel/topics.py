"""Which topic a message goes on, and MQTT topic matching. The names of the topic tree live in
:mod:`channel.vocab.topics` ."""

from __future__ import annotations

from functools import lru_cache

from channel.codec import Message
from channel.commands import _Command
from channel.events import MessagePosted, PresenceChanged
from channel.vocab.topics import command_topic, event_topic, message_topic, presence_topic


def topic_for(message: Message) -> str:
    """The session-relative topic a message is published on."""
    if isinstance(message, _Command):
        return command_topic(message.kind)
    if isinstance(message, MessagePosted):
        return message_topic(message.to)
    if isinstance(message, PresenceChanged):
        return presence_topic(message.participant, message.connection)
    return event_topic(message.kind)


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

