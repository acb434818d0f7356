"""An index beside a recording: the byte offset of each event's line, so a reader (the replay's
timeline) opens a recording of millions of events and reaches event N without reading what comes
before it.

The index of ``run.jsonl`` is ``run.jsonl.idx``: one JSON header line naming the recording's size
and modification time and the number of events, then one little-endian 8-byte offset per event.
An index whose header does not match the recording as it is now (the file grew, was rewritten, or
the index is cut short or not one of ours) is stale: it is rebuilt by one checked pass over the
recording (:func:`channel.recorder.scan_recording`, so an indexed recording is as valid as a read
one). Where the index cannot be written (a read-only folder) it is kept in memory for this open
only. A compressed recording (``.jsonl.gz``, ``.jsonl.zst``) is indexed by offsets in its
uncompressed lines: reading forward from where it stands is a stream, a seek back starts the
stream again. Event ``i`` of a recording has seq ``i + 1`` (the reader checks that seqs follow on from 1).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from array import array
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from itertools import pairwise
from pathlib import Path
from typing import IO, overload

from channel.codec import DecodeError, decode_event, decode_newer
from channel.events import Event
from channel.recorder import RecordingError, scan_recording
from channel.recording_files import is_compressed, open_bytes

INDEX_VERSION = 1
CACHED_EVENTS = 4096
"""Decoded events kept per open recording (a player walks forward; a seek lands anywhere)."""


def index_path(recording: str | os.PathLike[str]) -> Path:
    """Where the index of ``recording`` lives: beside it, ``.idx`` appended."""
    p = Path(recording)
    return p.with_name(p.name + ".idx")


class IndexedRecording(Sequence[Event]):
    """A recording as a sequence of events read on demand through its index (decoded when first
    asked for, a few thousand kept). Open with :func:`open_recording`; close when done."""

    def __init__(self, path: Path, offsets: array[int], end: int) -> None:
        self.path = path
        self._offsets = offsets
        self._end = end
        """Where the last complete event's line ends (a line cut short after it is no event)."""
        self._file: IO[bytes] | None = None
        self._compressed = is_compressed(path)
        self._cache: OrderedDict[int, Event] = OrderedDict()

    def __len__(self) -> int:
        return len(self._offsets)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            return list(self._read(start, stop))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"event {index} of a recording of {len(self)}")
        cached = self._cache.get(index)
        if cached is not None:
            self._cache.move_to_end(index)
            return cached
        event = next(self._read(index, index + 1))
        self._remember(index, event)
        return event

    def __iter__(self) -> Iterator[Event]:
        return self._read(0, len(self))

    def read_from(self, start: int) -> Iterator[Event]:
        """The events from ``start`` (an index) to the end, streamed: decoded one by one as they are
        asked for, none kept (a reader that stops early reads no further than a chunk beyond)."""
        return self._read(max(0, start), len(self))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> IndexedRecording:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _read(self, start: int, stop: int) -> Iterator[Event]:
        """Events ``start``..``stop - 1``, one read of their bytes in chunks (not one seek each)."""
        file = self._open()
        chunk = 8192
        for first in range(start, stop, chunk):
            last = min(stop, first + chunk)
            begin = self._offsets[first]
            finish = self._offsets[last] if last < len(self) else self._end
            if any(b <= a for a, b in pairwise(self._offsets[first : last + 1])) or finish <= begin:
                raise self._mismatch()  # offsets that do not climb through the file: a damaged index
            if self._compressed:
                file = self._stream_to(begin)
            else:
                file.seek(begin)
            data = file.read(finish - begin)
            lines = [line for line in data.split(b"\n") if line.strip()]
            if len(lines) != last - first:
                raise self._mismatch()
            for i, line in enumerate(lines, first):
                event = self._cache.get(i)
                if event is None:
                    try:
                        event = decode_event(line)
                    except DecodeError:
                        read = decode_newer(line)  # a newer writer's line, read past when indexed
                        if read is None:
                            raise self._mismatch() from None
                        event = read
                yield event

    def _mismatch(self) -> RecordingError:
        """The recording no longer matches its index: changed under the reader, or the index was
        damaged with its header intact. The index goes, so the next open rebuilds it."""
        with contextlib.suppress(OSError):
            index_path(self.path).unlink()
        return RecordingError(f"{self.path}: changed while it was read, or its index was damaged (reopen it)")

    def _open(self) -> IO[bytes]:
        if self._file is None:
            self._file = open_bytes(self.path)  # closed by close()
        return self._file

    def _stream_to(self, offset: int) -> IO[bytes]:
        """The compressed recording's stream at ``offset`` (of its uncompressed bytes): read on to
        it, from the start again when it lies behind (a zstd stream cannot seek)."""
        file = self._open()
        if offset < file.tell():
            self.close()
            file = self._open()
        while (gap := offset - file.tell()) > 0:
            if not file.read(min(gap, 1 << 20)):
                raise self._mismatch()
        return file

    def _remember(self, index: int, event: Event) -> None:
        self._cache[index] = event
        if len(self._cache) > CACHED_EVENTS:
            self._cache.popitem(last=False)


def open_recording(path: str | os.PathLike[str]) -> IndexedRecording:
    """Open a recording through its index, building (and writing beside it) the index when there is
    none or it is stale. Raises RecordingError as :func:`channel.recorder.read_recording` does, and
    for a recording without a single complete event."""
    p = Path(path)
    try:
        info = p.stat()
    except OSError as exc:
        raise RecordingError(f"{p}: cannot read recording ({exc.strerror})") from None
    header = _header(info)
    loaded = _load(index_path(p), header)
    if loaded is None:
        loaded = _build(p)
        with contextlib.suppress(OSError):  # a cache: a recording in a read-only folder is indexed each open
            _write(index_path(p), header, *loaded)
    offsets, end = loaded
    if not offsets:
        raise RecordingError(f"{p}: no scopewatch events in this file")
    return IndexedRecording(p, offsets, end)


def _header(info: os.stat_result) -> dict[str, int]:
    return {"scopewatch_index": INDEX_VERSION, "size": info.st_size, "mtime_ns": info.st_mtime_ns}


def _build(path: Path) -> tuple[array[int], int]:
    offsets = array("Q")
    for _event in scan_recording(path, offsets):
        pass
    end = offsets.pop() if offsets else 0
    return offsets, end


def _load(index: Path, expected: dict[str, int]) -> tuple[array[int], int] | None:
    """The offsets in ``index`` when it belongs to the recording as it is now, else None."""
    try:
        with open(index, "rb") as file:
            header = json.loads(file.readline())
            if not isinstance(header, dict) or {k: header.get(k) for k in expected} != expected:
                return None
            offsets = array("Q")
            offsets.frombytes(file.read())
    except (OSError, ValueError):
        return None
    end = header.get("end")
    if len(offsets) != header.get("events") or not isinstance(end, int):
        return None
    if sys.byteorder != "little":
        offsets.byteswap()
    if offsets and not 0 <= offsets[0] <= offsets[-1] < end:
        return None  # damaged (the offsets in between are checked as they are read)
    return offsets, end


def _write(index: Path, header: dict[str, int], offsets: array[int], end: int) -> None:
    """Write the index whole under a temporary name, then rename it: a reader never sees half of one."""
    data = array("Q", offsets)
    if sys.byteorder != "little":
        data.byteswap()
    partial = index.with_name(f".{index.name}.{os.getpid()}.tmp")
    try:
        with open(partial, "wb") as file:
            file.write(json.dumps({**header, "events": len(offsets), "end": end}).encode() + b"\n")
            data.tofile(file)
        os.replace(partial, index)
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
