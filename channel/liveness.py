"""Whether a viewer's engine is there: its Last Will told apart from an outage of the broker.

An engine's presence says "left" when it ends (after ``SessionEnded``) and, as its Last Will, when it
dies. But a broker that shuts down (a restart) sends every client's Last Will, the engine's too, an
instant before it drops the viewers; and a restarted broker may hand a viewer back a retained "left"
before the engine, reconnecting too, says "online" again. So a viewer believes a "left" only when its
own link to the broker stayed up :data:`GRACE_S` after it, and :data:`BACK_GRACE_S` since the link
last came back, with no "online" since. :class:`Liveness` follows the viewer's link (``MqttBus.on_link``)
and the engine's presence, and reports one of three states: ``running``, ``broker lost`` (the viewer
reconnects on its own) and ``engine gone``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Literal

from channel.events import PresenceChanged

State = Literal["running", "broker lost", "engine gone"]

GRACE_S = 2.0
"""How long the viewer's link must stay up after the engine's "left" for it to count (a broker that
shuts down drops its clients within milliseconds of sending the wills)."""
BACK_GRACE_S = 6.0
"""How long since the viewer's link came back before a "left" counts (an engine reconnects within
its 2 s backoff of the broker's return and says "online" again)."""

BROKER_LOST = "broker connection lost; reconnecting"
"""What a viewer says when its link to the broker drops (not "engine gone")."""
ENGINE_GONE = "engine gone: it stopped without ending the session (killed or cut off)"


class Liveness:
    """The engine's state as one viewer sees it; ``on_change(state)`` is called on every change."""

    def __init__(
        self, on_change: Callable[[State], None], *, grace: float = GRACE_S, back_grace: float = BACK_GRACE_S
    ) -> None:
        self.on_change = on_change
        self.grace = grace
        self.back_grace = back_grace
        self.state: State = "running"
        self.left: PresenceChanged | None = None
        """The engine's last "left", while no "online" came after it."""
        self._up = True
        self._up_since = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None

    def link(self, up: bool) -> None:
        """The viewer's own connection to the broker went down or came back."""
        self._cancel()
        self._up = up
        if up:
            self._up_since = time.monotonic()
            if self.left is not None:
                self._judge()
            self._set("running")
        else:
            self._set("broker lost")

    def presence(self, event: PresenceChanged) -> None:
        """The engine's presence (other participants' are ignored)."""
        if event.participant != "engine":
            return
        if event.status == "online":
            self.left = None
            self._cancel()
            if self._up:
                self._set("running")
            return
        self.left = event
        if self._up:
            self._judge()

    def close(self) -> None:
        self._cancel()

    def _judge(self) -> None:
        self._cancel()
        delay = max(self.grace, self._up_since + self.back_grace - time.monotonic())
        self._timer = asyncio.get_running_loop().call_later(delay, self._confirm)

    def _confirm(self) -> None:
        self._timer = None
        if self._up and self.left is not None:
            self._set("engine gone")

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _set(self, state: State) -> None:
        if state != self.state:
            self.state = state
            self.on_change(state)
