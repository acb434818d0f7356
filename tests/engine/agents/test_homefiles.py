"""The engine's files in an agent's HOME (engine/agents/homefiles.py): a link the agent planted on the way
is replaced or refused, never followed (red team 02)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.agents import homefiles
from engine.agents.external import MESSAGE_COMMANDS, write_message_commands


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    (tmp_path / "host").mkdir()
    target = tmp_path / "host" / "victim"
    target.write_text("ORIGINAL")
    return target


def test_a_link_at_the_name_or_its_temporary_is_replaced_not_followed(home: Path, victim: Path) -> None:
    (home / ".scopewatch").mkdir()
    for name in ("outbox.jsonl.ack", "outbox.jsonl.ack.part"):
        (home / ".scopewatch" / name).symlink_to(victim)
    homefiles.write_file(home, home / ".scopewatch" / "outbox.jsonl.ack", "3")
    assert victim.read_text() == "ORIGINAL"
    ack = home / ".scopewatch" / "outbox.jsonl.ack"
    assert not ack.is_symlink() and ack.read_text() == "3"
    assert not (home / ".scopewatch" / "outbox.jsonl.ack.part").exists()


def test_a_linked_folder_is_removed_and_made_again(home: Path, victim: Path) -> None:
    (home / ".scopewatch").mkdir()
    (home / ".scopewatch" / "bin").symlink_to(victim.parent)
    write_message_commands(home / ".scopewatch" / "bin")
    assert sorted(p.name for p in victim.parent.iterdir()) == ["victim"]
    bin_dir = home / ".scopewatch" / "bin"
    assert not bin_dir.is_symlink() and sorted(p.name for p in bin_dir.iterdir()) == sorted(MESSAGE_COMMANDS)
    assert all(os.access(bin_dir / name, os.X_OK) for name in MESSAGE_COMMANDS)


def test_a_link_in_home_itself_is_not_followed(home: Path, victim: Path) -> None:
    (home / ".scopewatch").symlink_to(victim.parent)
    homefiles.remove(home, home / ".scopewatch" / "victim")
    assert victim.read_text() == "ORIGINAL"
    assert not (home / ".scopewatch").exists()  # the link itself went


def test_reads_refuse_links_and_fifos(home: Path, victim: Path) -> None:
    (home / "out").symlink_to(victim)
    with pytest.raises(homefiles.UnsafeName):
        homefiles.read_file(home, home / "out")
    os.mkfifo(home / "fifo")
    with pytest.raises(homefiles.UnsafeName):
        homefiles.read_file(home, home / "fifo")
    (home / "file").write_bytes(b"abcdef")
    assert homefiles.read_file(home, home / "file", 2) == b"cdef"
    assert homefiles.read_file(home, home / "missing") is None


def test_the_acp_outbox_is_not_read_through_a_link(home: Path, victim: Path) -> None:
    from engine.agents.acp_launch import OUTBOX, AcpOutbox

    victim.write_text('{"tool": "post_message", "args": {"text": "host file"}}\n')
    (home / ".scopewatch").symlink_to(victim.parent)
    outbox = home / OUTBOX
    assert AcpOutbox(outbox, home).take() == []
    (home / ".scopewatch").mkdir()
    (home / OUTBOX).symlink_to(victim)
    assert AcpOutbox(outbox, home).take() == [] and AcpOutbox(outbox).take() == []
    (home / OUTBOX).unlink()
    (home / OUTBOX).write_text('{"tool": "post_message", "args": {"text": "mine"}}\n')
    assert [item["args"]["text"] for item in AcpOutbox(outbox, home).take()] == ["mine"]
