"""Recordings: every event appended to a JSONL file as it happens, read back in one streamed pass.

A line is one event's JSON exactly as the codec writes it, and carries no signature: signatures
travel beside the payload on the bus (channel.signing), so a recording made before signing, with
HMAC-signed traffic or with Ed25519-signed traffic is the same file, read unchanged."""

from __future__ import annotations

import contextlib
import gzip
import logging
import os
import warnings
import zlib
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from channel.codec import DecodeError, decode_event, decode_newer, encode
from channel.events import SCHEMA_VERSION, Event, SessionStarted
from channel.recording_files import RecordingError as RecordingError
from channel.recording_files import RecordingWarning, is_compressed, make_parent, open_bytes
from channel.seat_events import Forked

BOM = b"\xef\xbb\xbf"
"""UTF-8's byte order mark, which some editors put at the start of a file they save."""

log = logging.getLogger("scopewatch.recorder")

GZIP_LEVEL = 6
"""zlib's default level: a recording is written as it happens, and level 9 costs far more CPU for a
few per cent."""


class Recorder:
    """Appends one JSON line per event and flushes it, so a killed process leaves every complete
    event on disk (SIGKILL loses at most the line being written). A path ending ``.gz`` is written
    gzip-compressed, each event flushed to a byte boundary of the stream (a sync flush), so a killed
    process leaves a stream whose complete lines all read back, as a plain file's do; ``.zst`` is
    refused (compress with zstd afterwards). ``append``: go on writing a recording this run itself
    began (made empty by the driver, written by the worker that runs its session), or the one a resumed
    session goes on in (engine/overeager/runner.py readies it); a gzip'd one gets one more gzip member,
    which every reader reads as the stream's continuation."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = False, append: bool = False) -> None:
        self.path = Path(path)
        if is_compressed(self.path) and self.path.suffix.lower() != ".gz":
            raise RecordingError(f"{self.path}: record to a .jsonl or .jsonl.gz file (compress with zstd afterwards)")
        try:
            make_parent(self.path)  # a missing folder is made, as for every file scopewatch writes
            # One recording, one session: never append to (or overwrite) another session's.
            self._raw: IO[bytes] | None = open(self.path, "ab" if append else "xb")
            self._file: IO[bytes] | None = self._raw
            if is_compressed(self.path):
                self._file = gzip.GzipFile(fileobj=self._raw, mode="wb", compresslevel=GZIP_LEVEL)  # type: ignore[assignment]
        except FileExistsError:
            raise RecordingError(f"--record {self.path}: already exists; record to a new file") from None
        except OSError as exc:
            raise RecordingError(f"--record {self.path}: cannot write the recording ({exc.strerror or exc})") from None
        self._fsync = fsync
        self.failure: str | None = None
        """Why the recording stopped before the session ended (a full disk), None while it is whole."""

    def write(self, event: Event) -> None:
        """Append one event. A write that fails (``No space left on device``) ends the recording, not the
        session: one warning line names the file, the reason and the event, and what was written before
        reads back as a partial recording."""
        if self._file is None or event.TRANSIENT:
            return
        try:
            self._file.write(encode(event) + b"\n")
            self._file.flush()  # a GzipFile's: a sync flush, then its file's
            if self._fsync:
                os.fsync(self._file.fileno())
        except OSError as exc:
            self._stop(f"cannot write the recording ({exc.strerror or exc}): it stops before event {event.seq}")

    def close(self) -> None:
        if self._file is not None and self._raw is not None:
            try:
                self._file.close()  # a GzipFile's writes the stream's end, and leaves its file open
                self._raw.close()
            except OSError as exc:
                self._stop(f"cannot finish the recording ({exc.strerror or exc})")
            self._file = self._raw = None

    def _stop(self, why: str) -> None:
        self.failure = f"--record {self.path}: {why}; what was written before reads back (a partial recording)"
        raw, self._file, self._raw = self._raw, None, None
        if raw is not None:
            with contextlib.suppress(OSError):  # its buffer's flush fails again; the file is closed all the same
                raw.close()
        log.warning("scopewatch: warning: %s", self.failure)


def read_recording(path: str | os.PathLike[str]) -> Iterator[Event]:
    """Yield the events of a recording in order, streamed (one pass, one line in memory at a time:
    a recording of millions of events reads in constant memory; a ``.jsonl.gz`` or ``.jsonl.zst``
    is read as its lines, :mod:`channel.recording_files`). A last line cut short (a crash
    mid-write) is ignored; a bad line anywhere else, a second session, a first ``seq`` other than 1,
    a ``seq`` that does not follow on, or events before the ``SessionStarted`` (a fork's ``Forked``
    may come first) raise RecordingError naming file and line; so does a file that is not a regular
    file (a FIFO or a device would hang the reader or never end) and one with no ``SessionStarted``."""
    p = Path(path)
    with open_bytes(p) as file:  # closed also when the reader stops early
        yield from _checked(p, file, None)


def scan_recording(path: str | os.PathLike[str], offsets: array[int]) -> Iterator[Event]:
    """As :func:`read_recording`, appending to ``offsets`` where each event's line starts and, once
    the events are read, where the last one's line ends (what an index keeps)."""
    p = Path(path)
    with open_bytes(p) as file:
        yield from _checked(p, file, offsets)


def _checked(p: Path, file: IO[bytes], offsets: array[int] | None) -> Iterator[Event]:
    """The checked events of ``file``: the first ones (up to the session's start) checked one by one
    in :func:`_start`, the rest in one tight loop (a recording is millions of them)."""
    lines = enumerate(_lines(file), 1)
    newer = _Newer(p)
    try:
        head = _start(p, lines, offsets, newer)
        if not head:
            return
        yield from head
        last = head[-1]
        session, seq = last.session, last.seq
        at = end = offsets.pop() if offsets is not None else 0
        decode = decode_event
        for number, line in lines:
            if line[:1] != b"{" and not line.strip():  # an event's line starts with "{": no copy of it to strip
                at += len(line)
                continue
            try:
                event = decode(line)
            except DecodeError as exc:
                if not line.endswith(b"\n"):  # the last line, cut short by a crash
                    break
                read = decode_newer(line)
                if read is None:
                    raise RecordingError(f"{p}:{number}: not a scopewatch event ({exc})") from None
                event = newer.add(number, read)
            seq += 1
            if event.seq != seq or event.session != session:
                _refuse(p, number, event, session, seq - 1)
            if type(event) is SessionStarted:
                _schema(p, number, event)
            if offsets is not None:
                offsets.append(at)
            at = end = at + len(line)
            yield event
        if offsets is not None:
            offsets.append(end)
        newer.warn()
    except (OSError, zlib.error) as exc:  # gzip.BadGzipFile, zlib.error: a compressed file damaged
        raise RecordingError(f"{p}: cannot read recording ({getattr(exc, 'strerror', None) or exc})") from None


class _Newer:
    """The lines of a recording read past as a newer writer's (:func:`channel.codec.decode_newer`):
    one warning for the file at its end, naming the first and how many."""

    def __init__(self, path: Path) -> None:
        self.path, self.first, self.count = path, 0, 0

    def add(self, number: int, event: Event) -> Event:
        self.first = self.first or number
        self.count += 1
        return event

    def warn(self) -> None:
        if self.count:
            warnings.warn(
                f"{self.path}:{self.first}: {self.count} line(s) with event kinds or fields this scopewatch does "
                "not know read past (written by a newer scopewatch?)",
                RecordingWarning,
                stacklevel=2,
            )


def _lines(file: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``file``; a compressed stream cut short (EOFError: a recorder killed mid-write
    leaves no end to its stream) ends after its last line, which the reader drops when it is cut
    short too, as a plain file's."""
    try:
        yield from file
    except EOFError:
        return


def _start(p: Path, lines: Iterator[tuple[int, bytes]], offsets: array[int] | None, newer: _Newer) -> list[Event]:
    """The events up to and including the session's ``SessionStarted`` (a fork's ``Forked`` may come
    first), each checked; ``offsets`` gets their starts and where the next line starts. Empty for a
    file without a single complete event."""
    head: list[Event] = []
    at = 0
    for number, line in lines:
        if number == 1 and line.startswith(BOM):  # an editor's byte order mark: read past
            at, line = len(BOM), line[len(BOM) :]
        if line[:1] != b"{" and not line.strip():
            at += len(line)
            continue
        try:
            event = decode_event(line)
        except DecodeError as exc:  # a line cut short too: no session had started
            read = decode_newer(line)
            if read is None:
                raise RecordingError(f"{p}:{number}: not a scopewatch event ({exc})") from None
            event = newer.add(number, read)
        if not head and event.seq != 1:
            raise RecordingError(
                f"{p}:{number}: the first event has seq {event.seq}; a recording starts at seq 1 "
                "(is this the tail of another recording?)"
            )
        if not isinstance(event, SessionStarted | Forked):
            raise RecordingError(f"{p}:{number}: a {event.kind} before the session's SessionStarted")
        if head and (event.session != head[-1].session or event.seq != head[-1].seq + 1):
            _refuse(p, number, event, head[-1].session, head[-1].seq)
        if offsets is not None:
            offsets.append(at)
        at += len(line)
        head.append(event)
        if isinstance(event, SessionStarted):
            _schema(p, number, event)
            if offsets is not None:
                offsets.append(at)  # where the next line starts (taken back by the caller)
            return head
    if head:
        raise RecordingError(f"{p}: no SessionStarted in this recording (not the start of a session)")
    return head


def _refuse(p: Path, number: int, event: Event, session: str, seq: int) -> None:
    """Raise the RecordingError for an event that does not follow ``seq`` of ``session``."""
    if event.session != session:
        raise RecordingError(f"{p}:{number}: a second session ({event.session}) in one recording")
    raise RecordingError(f"{p}:{number}: seq {event.seq} does not follow {seq}")


def _schema(p: Path, number: int, event: SessionStarted) -> None:
    if event.schema_version > SCHEMA_VERSION:
        raise RecordingError(
            f"{p}:{number}: schema_version {event.schema_version} is newer than this "
            f"scopewatch understands ({SCHEMA_VERSION}); upgrade scopewatch"
        )


def stream_recording(path: str | os.PathLike[str]) -> Iterator[Event]:
    """The events of a recording, streamed (for report, compare, export): as
    :func:`read_recording`, and a file without a single complete event is an error too (raised at
    its end, so nothing is held meanwhile)."""
    p = Path(path)
    with open_bytes(p) as file:
        events = _checked(p, file, None)
        first = next(events, None)
        if first is None:
            raise RecordingError(f"{p}: no scopewatch events in this file")
        yield first
        yield from events


def load_recording(path: str | os.PathLike[str]) -> list[Event]:
    """All the events of a recording (for report and replay): as :func:`read_recording`, and a file
    without a single complete event is an error too."""
    return list(stream_recording(path))
