"""A fork names its parent by the parent's content (its lines uncompressed), so the parent gzip'd
or gunzip'd is still its parent; forks recorded before, named by the parent file's bytes, are
still accepted; a wrong parent is named in the message (cli2 F14)."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
from pathlib import Path

import pytest

from channel.recorder import load_recording
from channel.recording_files import content_hash, recording_hashes
from channel.vocab.config import SessionConfig
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session
from tui.cli import main


@pytest.fixture(scope="module")
def parent_and_fork(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("hash")
    parent, fork = folder / "parent.jsonl", folder / "fork.jsonl"
    asyncio.run(run_session(SessionConfig(seed=13, tasks=("t1-dates", "t2-retries")), record=str(parent)))
    plan = plan_fork(parent, 40, norms={"admin_only": "true"})
    asyncio.run(run_session(plan.config, record=str(fork), fork=plan))
    return parent, fork


def test_a_gzipd_parent_is_still_the_forks_parent(
    parent_and_fork: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parent, fork = parent_and_fork
    packed = tmp_path / "parent.jsonl.gz"
    packed.write_bytes(gzip.compress(parent.read_bytes()))
    assert content_hash(packed) == content_hash(parent) == hashlib.sha256(parent.read_bytes()).hexdigest()
    assert main(["report", str(fork), "--parent", str(packed)]) == 0
    assert capsys.readouterr().out.startswith("fork at seq 40 of parent ")


def test_a_fork_that_names_its_parents_bytes_is_accepted(
    parent_and_fork: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parent, fork = parent_and_fork
    packed = tmp_path / "old-parent.jsonl.gz"
    packed.write_bytes(gzip.compress(parent.read_bytes()))
    raw = hashlib.sha256(packed.read_bytes()).hexdigest()
    assert recording_hashes(packed) == (content_hash(parent), raw)
    events = load_recording(fork)
    old = tmp_path / "old-fork.jsonl"  # as recorded before: the Forked event names the file's bytes
    old.write_text(fork.read_text().replace(content_hash(parent), raw, 1))
    assert load_recording(old)[0].parent == raw != events[0].parent  # type: ignore[attr-defined]
    assert main(["report", str(old), "--parent", str(packed)]) == 0
    capsys.readouterr()


def test_a_wrong_parent_is_named(parent_and_fork: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    _, fork = parent_and_fork
    assert main(["report", str(fork), "--parent", str(fork)]) == 2
    assert capsys.readouterr().err.startswith(f"scopewatch: {fork}: {fork} is not this fork's parent: the fork names ")
