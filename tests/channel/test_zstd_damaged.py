"""A damaged ``.jsonl.zst`` (a bad checksum) or a file named so that is not zstd is one line naming the file in
every reader, as a damaged ``.gz`` is (records5 finding 1: a ``zstandard.ZstdError`` traceback); a stream cut
short still reads to its last complete line."""

from __future__ import annotations

from pathlib import Path

import pytest

from channel.recorder import RecordingError, load_recording
from channel.recording_files import content_hash
from tui.cli import main

zstandard = pytest.importorskip("zstandard")
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "causal-seed5.jsonl"


def _damaged(tmp_path: Path) -> Path:
    data = bytearray(zstandard.ZstdCompressor(write_checksum=True).compress(GOLDEN.read_bytes()))
    data[-1] ^= 0xFF  # the checksum
    path = tmp_path / "damaged.jsonl.zst"
    path.write_bytes(bytes(data))
    return path


def _not_zstd(tmp_path: Path) -> Path:
    path = tmp_path / "plain.jsonl.zst"
    path.write_bytes(GOLDEN.read_bytes())
    return path


@pytest.mark.parametrize("make", [_damaged, _not_zstd])
def test_every_reader_says_it_in_one_line(make: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(RecordingError, match="cannot read recording"):
        load_recording(path)
    with pytest.raises(OSError):
        content_hash(path)
    for argv in (["report", str(path)], ["export", str(path), "-o", str(tmp_path / "x.json")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and str(path) in err


def test_a_stream_cut_short_still_reads_to_its_last_line(tmp_path: Path) -> None:
    packer = zstandard.ZstdCompressor().compressobj()  # a block per line, as a writer flushing each event
    data = b"".join(
        packer.compress(line) + packer.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        for line in GOLDEN.read_bytes().splitlines(keepends=True)
    )
    path = tmp_path / "cut.jsonl.zst"
    path.write_bytes(data[: len(data) // 2])
    events = load_recording(path)
    assert 0 < len(events) < len(load_recording(GOLDEN))
