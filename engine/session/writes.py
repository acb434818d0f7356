"""Who changed what in an episode, kept from the ``FileChanged`` events (for attributing harm)."""

from __future__ import annotations

from dataclasses import dataclass, field

from channel.events import FileChanged
from channel.text import unescape_bytes


@dataclass
class WriteLog:
    """Every change of the episode's workspace by actor, from the watcher's and tools' events."""

    written: dict[str, str] = field(default_factory=dict)
    """Path -> the actor who last changed it."""
    touched_this_round: dict[str, str] = field(default_factory=dict)
    """Path -> the actor who changed it during the current round."""
    writes: list[tuple[str, str]] = field(default_factory=list)
    """(actor, path) of every change, in order."""

    def saw(self, event: FileChanged) -> None:
        """Record a change (an engine restore changes nothing anyone is answerable for)."""
        if event.via == "restore":
            return
        path = unescape_bytes(event.path)  # the file's own name, as the sandbox has it (channel.text)
        self.written[path] = event.actor
        self.touched_this_round[path] = event.actor
        self.writes.append((event.actor, path))

    def take_round(self) -> dict[str, str]:
        """The paths changed this round (and by whom); the next round starts empty."""
        touched, self.touched_this_round = self.touched_this_round, {}
        return touched
