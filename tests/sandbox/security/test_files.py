"""Files that hung or crashed the engine (issue #24), on every backend present: a FIFO, a socket and
a name that is not UTF-8 in place of files another team owns, a folder 1,100 levels deep, a sparse
file. The engine finishes the command, reports the change, and the recording is valid JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.codec import decode_event
from channel.events import FileChanged, ShellCommandRan, ShimTampered, WriteRefused
from channel.recorder import Recorder
from sandbox.errors import SandboxError
from tests.sandbox.security.conftest import Box

NOT_OWNED = "services/payments/config.py"
ORIGINAL = "TIMEOUT = 5\nRETRIES = 3\n"


def _recording_is_valid_json(box: Box, tmp: Path) -> list[dict[str, object]]:
    """Every event seen, through the recorder, read back; each line parses as JSON."""
    path = tmp / "session.jsonl"
    recorder = Recorder(path)
    for event in box.seen:
        recorder.write(event)  # type: ignore[arg-type]
    recorder.close()
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    # each line decodes as the event it was (the box's events alone are no whole session, which
    # read_recording would refuse for want of a SessionStarted)
    assert [decode_event(line) for line in path.read_bytes().splitlines()] == list(box.seen)
    return lines


async def test_a_fifo_in_place_of_a_file_another_team_owns_is_rolled_back(box: Box, tmp_path: Path) -> None:
    result = await box.sh(f"rm {NOT_OWNED} && mkfifo {NOT_OWNED} && echo made", timeout=30)
    assert "made" in result.output
    assert any(e.path == NOT_OWNED and e.rolled_back for e in box.of(WriteRefused))
    assert await box.sandbox.read("alice", NOT_OWNED) == ORIGINAL
    _recording_is_valid_json(box, tmp_path)


async def test_a_socket_in_place_of_a_file_another_team_owns_is_rolled_back(box: Box, tmp_path: Path) -> None:
    bind = f"import socket; socket.socket(socket.AF_UNIX).bind('{NOT_OWNED}')"
    command = f'rm {NOT_OWNED} && python3 -c "{bind}" && echo made'
    result = await box.sh(command, timeout=30)
    assert "made" in result.output, result.output
    assert any(e.path == NOT_OWNED and e.rolled_back for e in box.of(WriteRefused))
    assert await box.sandbox.read("alice", NOT_OWNED) == ORIGINAL
    _recording_is_valid_json(box, tmp_path)


async def test_a_fifo_in_an_owned_folder_is_reported_and_reading_it_does_not_block(box: Box) -> None:
    await box.sh("mkfifo services/billing/pipe")
    changed = [e for e in box.of(FileChanged) if e.path == "services/billing/pipe"]
    assert changed and changed[0].change == "added" and "fifo" in changed[0].diff
    with pytest.raises(SandboxError, match="not a file: a fifo"):
        await box.sandbox.read("alice", "services/billing/pipe")


async def test_a_fifo_and_a_socket_in_place_of_owned_files_are_reported(box: Box, tmp_path: Path) -> None:
    """The owner's own files replaced by a FIFO and a socket: no rollback (they are hers), the
    command finishes, each change is reported as what the file became, the recording is valid."""
    bind = "import socket; socket.socket(socket.AF_UNIX).bind('services/billing/invoice.py')"
    command = f'rm services/billing/*.py && mkfifo services/billing/tax.py && python3 -c "{bind}" && echo made'
    await box.sh("printf 'RATE = 1\\n' > services/billing/tax.py")
    result = await box.sh(command, timeout=30)
    assert "made" in result.output, result.output
    assert not [e for e in box.of(WriteRefused) if e.path.startswith("services/billing/")]
    changed = {e.path: e for e in box.of(FileChanged) if "fifo" in e.diff or "socket" in e.diff}
    assert set(changed) == {"services/billing/tax.py", "services/billing/invoice.py"}, [
        (e.path, e.change, e.diff[-60:]) for e in box.of(FileChanged)
    ]
    _recording_is_valid_json(box, tmp_path)


async def test_a_name_that_is_not_utf8_is_escaped_in_events(box: Box, tmp_path: Path) -> None:
    await box.sh("printf x > services/payments/$'\\xff\\xfe'.py; printf y > services/billing/$'caf\\xe9'.txt")
    refused = [e.path for e in box.of(WriteRefused) if e.rolled_back]
    assert "services/payments/\\xff\\xfe.py" in refused
    assert "services/billing/caf\\xe9.txt" in [e.path for e in box.of(FileChanged)]
    lines = _recording_is_valid_json(box, tmp_path)
    assert any(line.get("path") == "services/billing/caf\\xe9.txt" for line in lines)
    name = b"\xff\xfe.py".decode("utf-8", "surrogateescape")
    assert not (box.sandbox.root / "services" / "payments" / name).exists()


async def test_a_tree_1100_levels_deep_is_reported_and_removed(box: Box, tmp_path: Path) -> None:
    make = (
        "import os; os.chdir('services/billing')\n"
        "for _ in range(1100): os.mkdir('d'); os.chdir('d')\n"
        "open('f', 'w').write('deep')"
    )
    result = await box.sh(f'python3 -c "{make}" && echo made', timeout=60)
    assert "made" in result.output, result.output[-300:]
    assert any(e.path.endswith("/d/f") and e.path.count("/d") == 1100 for e in box.of(FileChanged))
    base = box.sandbox.root.parent
    await box.sandbox.close()
    assert not base.exists()
    _recording_is_valid_json(box, tmp_path)


async def test_a_sparse_file_is_known_by_its_size_not_held(box: Box) -> None:
    await box.sh("truncate -s 200M services/billing/huge.bin; truncate -s 100M services/payments/huge.bin")
    changed = [e for e in box.of(FileChanged) if e.path == "services/billing/huge.bin"]
    assert changed and "209715200 bytes" in changed[0].diff
    assert any(e.path == "services/payments/huge.bin" and e.rolled_back for e in box.of(WriteRefused))
    assert not box.sandbox.exists("services/payments/huge.bin")


async def test_an_exec_storm_with_huge_argv_is_capped_and_says_so(box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    import sandbox.backends.aftermath
    import sandbox.commands.volume

    monkeypatch.setattr(sandbox.commands.volume, "CALLS_MAX", 4)
    monkeypatch.setattr(sandbox.backends.aftermath, "CALLS_MAX", 4)
    big = "$(head -c 100000 /dev/zero | tr '\\0' a)"
    result = await box.sh(f"for i in 1 2 3 4 5 6; do /bin/echo {big} {big} >/dev/null; done; git push origin main", 60)
    assert not result.timed_out
    ran = box.of(ShellCommandRan)
    assert any(e.atom == "git_push_protected" for e in ran), [(e.argv[:2], e.atom) for e in ran]  # atoms never cut
    if box.sandbox.label.endswith("+ strace"):
        assert len(ran) <= 4
        assert any("not reported one by one" in e.reason for e in box.of(ShimTampered))
    assert all(sum(len(a) for a in e.argv) <= 70_000 for e in ran)
