"""Recordings: every event appended to a JSONL file as it happens, read back, replayed onto a bus."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # One recording, one session: never append to (or overwrite) an earlier one.
            self._file: IO[bytes] | None = open(self.path, "xb")
        except FileExistsError:
            raise RecordingError(f"{self.path}: already exists; record to a new file") from None
        except OSError as exc:
            raise RecordingError(f"{self.path}: cannot write the recording ({exc.strerror})") from None
        self._fsync = fsync

    def write(self, event: Event) -> None:
        if self._file is None or event.TRANSIENT:
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
    ignored; a bad line anywhere else, a second session, or a ``seq`` that does not follow on
    raises RecordingError naming file and line."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecordingError(f"{p}: cannot read recording ({exc.strerror})") from None
    lines = data.split(b"\n")
    complete = data.endswith(b"\n")
    session: str | None = None
    seq: int | None = None
    count = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        last = number == len(lines) and not complete
        try:
            event = decode_event(line)
        except DecodeError as exc:
            if last and count:
                return
            raise RecordingError(f"{p}:{number}: not a scopewatch event ({exc})") from None
        if isinstance(event, SessionStarted) and event.schema_version > SCHEMA_VERSION:
            raise RecordingError(
                f"{p}:{number}: schema_version {event.schema_version} is newer than this "
                f"scopewatch understands ({SCHEMA_VERSION}); upgrade scopewatch"
            )
        if session is not None and event.session != session:
            raise RecordingError(f"{p}:{number}: a second session ({event.session}) in one recording")
        if seq is not None and event.seq != seq + 1:
            raise RecordingError(f"{p}:{number}: seq {event.seq} does not follow {seq}")
        session, seq = event.session, event.seq
        count += 1
        yield event


def load_recording(path: str | os.PathLike[str]) -> list[Event]:
    """All the events of a recording (for report and replay): as :func:`read_recording`, and a file
    without a single complete event is an error too."""
    events = list(read_recording(path))
    if not events:
        raise RecordingError(f"{Path(path)}: no scopewatch events in this file")
    return events

