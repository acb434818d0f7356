"""Spilled contents (:mod:`sandbox.workspace.spill`): written once under their hash, read back where the bytes are
needed, removed when nothing names them, and a mirror of a tree holding them stays intact without reading them."""

from __future__ import annotations

from pathlib import Path

from sandbox.workspace import spill
from sandbox.workspace.entries import put_entry
from sandbox.workspace.mirror import Mirror


def test_a_big_content_is_kept_on_disk_and_read_back(tmp_path: Path) -> None:
    store = spill.Spill(tmp_path / "known")
    big, small = b"x" * spill.SPILL_MIN, b"small\n"
    entry = store.keep(big)
    assert entry is not None and spill.is_spilled(entry) and len(entry) < 200
    assert store.keep(small) == small
    assert spill.load(entry) == big and spill.size_of(entry) == len(big)
    assert spill.same(entry, big) and not spill.same(entry, big + b"y")
    put_entry(tmp_path / "out", entry)
    assert (tmp_path / "out").read_bytes() == big
    store.hold(entry)
    store.collect()
    assert spill.load(entry) == big
    store.release(entry)
    pinned = store.pin([entry])
    store.collect()
    assert spill.load(entry) == big  # a test run still copies it
    store.unpin(pinned)
    store.collect()
    assert list((tmp_path / "known").iterdir()) == []


def test_past_the_resident_budget_small_contents_spill_too(tmp_path: Path) -> None:
    store = spill.Spill(tmp_path / "known")
    store.resident = spill.RESIDENT_MAX
    entry = store.keep(b"small\n")
    assert entry is not None and spill.is_spilled(entry) and spill.load(entry) == b"small\n"


def test_a_mirror_of_spilled_contents_is_not_rewritten(tmp_path: Path) -> None:
    store = spill.Spill(tmp_path / "known")
    entry = store.keep(b"y" * spill.SPILL_MIN)
    assert entry is not None
    mirror = Mirror(tmp_path / "ws")
    assert mirror.sync({"a.txt": entry, "b.txt": b"b\n"}) == ["a.txt", "b.txt"]
    assert (tmp_path / "ws" / "a.txt").read_bytes() == b"y" * spill.SPILL_MIN
    assert mirror.sync({"a.txt": entry, "b.txt": b"b\n"}) == []
    (tmp_path / "ws" / "a.txt").write_bytes(b"z" * spill.SPILL_MIN)
    assert sorted(mirror.sync({"a.txt": entry, "b.txt": b"b\n"})) == ["a.txt", "b.txt"]


def test_a_content_that_cannot_be_written_is_held_in_memory(tmp_path: Path) -> None:
    (tmp_path / "full").write_text("not a folder")
    store = spill.Spill(tmp_path / "full")
    big = b"x" * spill.SPILL_MIN
    assert store.keep(big) == big
