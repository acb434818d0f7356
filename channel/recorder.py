"""Recordings: every event appended to a JSONL file as it happens, read back in one streamed pass.

A line is one event's JSON exactly as the codec writes it, and carries no signature: signatures
travel beside the payload on the bus (channel.signing), so a recording made before signing, with
HMAC-signed traffic or with Ed25519-signed traffic is the same file, read unchanged."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from channel.codec import DecodeError, decode_event, encode
from channel.events import SCHEMA_VERSION, Event, SessionStarted
from channel.recording_files import RecordingError as RecordingError
from channel.recording_files import is_compressed, open_bytes
from channel.seat_events import Forked


class Recorder:
    """Appends one JSON line per event and flushes it, so a killed process leaves every complete
    event on disk (SIGKILL loses at most the line being written)."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = False) -> None:
        self.path = Path(path)
        if is_compressed(self.path):
            raise RecordingError(f"{self.path}: record to a .jsonl file (compress it afterwards: gzip or zstd)")
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
    """Yield the events of a recording in order, streamed (one pass, one line in memory at a time:
    a recording of millions of events reads in constant memory; a ``.jsonl.gz`` or ``.jsonl.zst``
    is read as its lines, :mod:`channel.recording_files`). A last line cut short (a crash
    mid-write) is ignored; a bad line anywhere else, a second session, a first ``seq`` other than 1,
    a ``seq`` that does not follow on, or events before the ``SessionStarted`` (a fork's ``Forked``
    may come first) raise RecordingError naming file and line; so does a file that is not a regular
    file (a FIFO or a device would hang the reader or never end) and one with no ``SessionStarted``."""
    for _start, _end, event in scan_recording(path):
        yield event


def scan_recording(path: str | os.PathLike[str]) -> Iterator[tuple[int, int, Event]]:
    """As :func:`read_recording`, each event with the byte offsets where its line starts and ends
    (what an index keeps)."""
    p = Path(path)
    file = open_bytes(p)  # closed below, also when the reader stops early
    with file:
        yield from _checked(p, file)


def _checked(p: Path, file: IO[bytes]) -> Iterator[tuple[int, int, Event]]:
    session: str | None = None
    seq: int | None = None
    count = 0
    started = False
    offset = 0
    try:
        for number, line in enumerate(file, 1):
            at, offset = offset, offset + len(line)
            if line[:1] != b"{" and not line.strip():  # an event's line starts with "{": no copy of it to strip
                continue
            try:
                event = decode_event(line)
            except DecodeError as exc:
                if not line.endswith(b"\n") and started:  # the last line, cut short by a crash
                    return
                raise RecordingError(f"{p}:{number}: not a scopewatch event ({exc})") from None
            if seq is None and event.seq != 1:
                raise RecordingError(
                    f"{p}:{number}: the first event has seq {event.seq}; a recording starts at seq 1 "
                    "(is this the tail of another recording?)"
                )
            if not started:
                if not isinstance(event, SessionStarted | Forked):
                    raise RecordingError(f"{p}:{number}: a {event.kind} before the session's SessionStarted")
                started = isinstance(event, SessionStarted)
            if type(event) is SessionStarted and event.schema_version > SCHEMA_VERSION:
                raise RecordingError(
                    f"{p}:{number}: schema_version {event.schema_version} is newer than this "
                    f"scopewatch understands ({SCHEMA_VERSION}); upgrade scopewatch"
                )
            if seq is not None and (event.session != session or event.seq != seq + 1):
                if event.session != session:
                    raise RecordingError(f"{p}:{number}: a second session ({event.session}) in one recording")
                raise RecordingError(f"{p}:{number}: seq {event.seq} does not follow {seq}")
            session, seq = event.session, event.seq
            count += 1
            yield at, offset, event
    except (OSError, EOFError) as exc:  # EOFError, gzip.BadGzipFile: a compressed file cut short or damaged
        raise RecordingError(f"{p}: cannot read recording ({getattr(exc, 'strerror', None) or exc})") from None
    if count and not started:
        raise RecordingError(f"{p}: no SessionStarted in this recording (not the start of a session)")


def stream_recording(path: str | os.PathLike[str]) -> Iterator[Event]:
    """The events of a recording, streamed (for report, compare, export): as
    :func:`read_recording`, and a file without a single complete event is an error too (raised at
    its end, so nothing is held meanwhile)."""
    count = 0
    for _start, _end, event in scan_recording(path):  # not through read_recording: a layer less per event
        count += 1
        yield event
    if not count:
        raise RecordingError(f"{Path(path)}: no scopewatch events in this file")


def load_recording(path: str | os.PathLike[str]) -> list[Event]:
    """All the events of a recording (for report and replay): as :func:`read_recording`, and a file
    without a single complete event is an error too."""
    return list(stream_recording(path))
