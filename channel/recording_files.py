"""Opening a recording's bytes: a plain ``.jsonl``, or one compressed as ``.jsonl.gz`` (gzip) or
``.jsonl.zst`` (Zstandard, when the ``zstandard`` package is installed), read transparently by every
reader (report, compare, export, replay, fork). A compressed recording is read as a stream of its
uncompressed lines: the offsets an index keeps are offsets in that stream. The recorder writes
``.jsonl.gz`` itself (:class:`channel.recorder.Recorder`); a stream cut short (a killed recorder's)
is read to its last complete line.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import io
import os
import stat
from pathlib import Path
from typing import IO, Any

from channel.errors import ScopewatchError

COMPRESSED = (".gz", ".zst")
"""The suffixes of compressed recordings."""


class RecordingError(ScopewatchError):
    """A recording that cannot be read; the message names the file and line."""


class RecordingWarning(UserWarning):
    """A recording read with lines skipped (a newer writer's kinds or fields); the command line
    prints it as one line on stderr."""


def make_parent(path: str | os.PathLike[str]) -> None:
    """Make the missing folders above a file about to be written (every file scopewatch writes:
    recordings, exports, HTML reports, label files). A file where a folder should be raises
    NotADirectoryError (``mkdir`` says FileExistsError, which reads as if the file to write existed)."""
    parent = Path(path).parent
    for folder in (parent, *parent.parents):
        if folder.exists() or folder.is_symlink():
            if not folder.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
            break
    parent.mkdir(parents=True, exist_ok=True)


def content_hash(path: str | os.PathLike[str]) -> str:
    """The sha256 (hex) of a recording's lines, uncompressed: the same recording plain or compressed
    has the same content hash (a fork names its parent by it)."""
    digest = hashlib.sha256()
    with open_bytes(Path(path)) as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def recording_hashes(path: str | os.PathLike[str]) -> tuple[str, ...]:
    """The hashes a fork may name its parent by: the content hash, then the sha256 of the file's
    bytes (what forks recorded before the content hash named their parent by) when it differs."""
    content = content_hash(path)
    with open(path, "rb") as file:
        raw = hashlib.file_digest(file, "sha256").hexdigest()
    return (content,) if raw == content else (content, raw)


def is_compressed(path: str | os.PathLike[str]) -> bool:
    return Path(path).suffix.lower() in COMPRESSED


def open_bytes(path: str | os.PathLike[str]) -> IO[bytes]:
    """The recording's (uncompressed) bytes, to read line by line; the caller closes it. Raises
    RecordingError for a file that is not a regular file (a FIFO or a device would hang a
    reader), one that cannot be read, and a ``.zst`` without the ``zstandard`` package."""
    p = Path(path)
    try:
        if not stat.S_ISREG(p.stat().st_mode):
            raise RecordingError(f"{p}: not a regular file (a recording is a .jsonl file written by scopewatch)")
        suffix = p.suffix.lower()
        if suffix == ".gz":
            return gzip.open(p, "rb")  # type: ignore[return-value]  # a GzipFile: closed by the caller
        raw = open(p, "rb")  # closed by the caller, or with the reader wrapping it
    except OSError as exc:
        raise RecordingError(f"{p}: cannot read recording ({exc.strerror})") from None
    if suffix == ".zst":
        try:
            import zstandard
        except ImportError:
            raw.close()
            raise RecordingError(f"{p}: a .zst recording needs the zstandard package (pip install zstandard)") from None
        reader = zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
        return io.BufferedReader(_Unzstd(reader, zstandard.ZstdError))
    return raw


class _Unzstd(io.RawIOBase):
    """A zstd stream whose damage (a bad checksum, a file that is not zstd) is an OSError, as a damaged
    gzip stream's is: every reader then says it in one line naming the file, never a ZstdError traceback."""

    def __init__(self, reader: Any, error: type[Exception]) -> None:
        self._reader, self._error = reader, error

    def readable(self) -> bool:
        return True

    def tell(self) -> int:
        return int(self._reader.tell())  # where the uncompressed stream is (an index reads on from it)

    def readinto(self, buffer: Any) -> int:
        try:
            return int(self._reader.readinto(buffer))
        except self._error as exc:
            raise OSError(f"not a whole zstd stream: {exc}") from None

    def close(self) -> None:
        if not self.closed:
            self._reader.close()
        super().close()
