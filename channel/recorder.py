"""Recordings: every event appended to a JSONL file as it happens, read back, replayed onto a bus."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from channel.bus import Bus
from channel.codec import DecodeError, decode_event, encode
from channel.errors import ScopewatchError
from channel.events import SCHEMA_VERSION, Event, SessionStarted


class RecordingError(ScopewatchError):
    """A recording that cannot be read; the message names the file and line."""


class Recorder:
    """Appends one JSON line per event and flushes it, so a killed process leaves every complete
    event on disk (SIGKILL loses at most the line being written)."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = False) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[bytes] | None = open(self.path, "ab")
        self._fsync = fsync

    def write(self, event: Event) -> None:
        if self._file is None:
            return
        self._file.write(encode(event) + b"\n")
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_recording(path: str | os.PathLike[str]) -> Iterator[Event]:
    """Yield the events of a recording in order. A last line cut short (a crash mid-write) is
    ignored; a bad line anywhere else raises RecordingError naming file and line."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecordingError(f"{p}: cannot read recording ({exc.strerror})") from None
    lines = data.split(b"\n")
    complete = data.endswith(b"\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        last = number == len(lines) and not complete
        try:
            event = decode_event(line)
        except DecodeError as exc:
            if last:
                return
            raise RecordingError(f"{p}:{number}: not a scopewatch event ({exc})") from None
        if isinstance(event, SessionStarted) and event.schema_version > SCHEMA_VERSION:
            raise RecordingError(
                f"{p}:{number}: schema_version {event.schema_version} is newer than this "
                f"scopewatch understands ({SCHEMA_VERSION}); upgrade scopewatch"
            )
        yield event


async def replay(path: str | os.PathLike[str], bus: Bus, *, speed: float | None = None) -> int:
    """Publish a recording's events onto a bus: as fast as possible (speed=None) or in real time
    scaled by ``speed``. Returns the number of events published."""
    count = 0
    previous: float | None = None
    for event in read_recording(path):
        if speed and previous is not None and event.ts > previous:
            await asyncio.sleep((event.ts - previous) / speed)
        previous = event.ts
        await bus.publish(event)
        count += 1
    return count
