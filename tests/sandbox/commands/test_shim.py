"""The shell shim's wrappers, run directly: they record faithfully through the audit channel, stay
transparent, and what is done to them or to the channel is found and put back."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.commands.shim import Shim, install_shim
from sandbox.workspace import settled


@pytest.fixture
def shim(tmp_path: Path) -> Iterator[tuple[Shim, dict[str, str]]]:
    made, real = install_shim(tmp_path, ["cp", "sed", "definitely-not-installed"], "/usr/bin:/bin")
    assert real["cp"] is not None and real["definitely-not-installed"] is None
    env = {"PATH": f"{made.dir}:/usr/bin:/bin", "SCOPEWATCH_ACTOR": "alice", "LANG": "C.UTF-8"}
    yield made, env
    made.close()


def _records(shim: Shim) -> list[tuple[tuple[str, ...], int]]:
    assert shim.channel is not None
    records, problems = shim.channel.records()
    assert problems == []
    return [(r.argv, r.exit_code) for r in records]


def test_wrapper_records_argv_and_is_transparent(shim: tuple[Shim, dict[str, str]], tmp_path: Path) -> None:
    made, env = shim
    work = tmp_path / "work"
    work.mkdir()
    (work / "a b.txt").write_text("x\n")
    weird = "name with\nnewline and 'quotes' $HOME"
    done = subprocess.run(["cp", "a b.txt", weird], cwd=work, env=env, capture_output=True)
    assert done.returncode == 0
    assert (work / weird).read_text() == "x\n"
    out = subprocess.run(["sed", "s/x/y/"], input=b"x\n", env=env, capture_output=True)
    assert out.stdout == b"y\n"
    assert made.channel is not None
    records, problems = made.channel.records()
    assert problems == []
    assert [r.argv for r in records] == [("cp", "a b.txt", weird), ("sed", "s/x/y/")]
    assert records[0].actor == "alice" and records[0].cwd == str(work) and records[0].exit_code == 0
    assert all(r.duration_ms >= 0 for r in records)
    assert made.channel.records() == ([], [])  # read once


def test_exit_codes_pass_through_and_missing_programs_are_recorded(
    shim: tuple[Shim, dict[str, str]], tmp_path: Path
) -> None:
    made, env = shim
    failed = subprocess.run(["cp", "/nonexistent", str(tmp_path / "x")], env=env, capture_output=True)
    assert failed.returncode == 1 and b"No such file" in failed.stderr
    missing = subprocess.run(["definitely-not-installed", "--flag"], env=env, capture_output=True)
    assert missing.returncode == 127 and b"command not found" in missing.stderr
    assert _records(made) == [
        (("cp", "/nonexistent", str(tmp_path / "x")), 1),
        (("definitely-not-installed", "--flag"), 127),
    ]


def test_the_channel_path_is_not_in_the_environment_and_cannot_be_read(shim: tuple[Shim, dict[str, str]]) -> None:
    made, env = shim
    assert not any(str(made.fifo) in value for value in env.values())
    assert (made.fifo.stat().st_mode & 0o777) == 0o222


def test_junk_in_the_channel_is_reported(shim: tuple[Shim, dict[str, str]]) -> None:
    made, env = shim
    subprocess.run(["sed", "s/a/b/"], input=b"a\n", env=env, capture_output=True, check=True)
    with open(made.fifo, "wb") as fifo:
        fifo.write(b"forged\0\x1eSWEND\0")
    assert made.channel is not None
    records, problems = made.channel.records()
    assert [r.argv for r in records] == [("sed", "s/a/b/")]
    assert problems and "malformed audit record" in problems[0]


def test_damaged_wrappers_and_channel_are_found_and_put_back(shim: tuple[Shim, dict[str, str]]) -> None:
    made, env = shim
    assert made.check() == []
    (made.dir / "cp").chmod(0o755)
    (made.dir / "cp").write_text('#!/bin/sh\nexec /usr/bin/cp "$@"\n')
    (made.dir / "sed").unlink()
    (made.dir / "git").write_text("#!/bin/sh\n")
    os.unlink(made.fifo)
    problems = made.check()
    assert any("cp, sed" in p for p in problems)
    assert any("git" in p for p in problems)
    assert any("audit channel was removed" in p for p in problems)
    assert made.check() == []
    subprocess.run(["cp", "--version"], env=env, capture_output=True, check=True)
    assert _records(made) == [(("cp", "--version"), 0)]


def test_a_settled_wrapper_is_not_read_again_and_any_change_to_it_is_still_found(
    shim: tuple[Shim, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    made, _ = shim
    later = os.lstat(made.dir / "cp").st_ctime_ns + 10**10
    monkeypatch.setattr(settled.time, "time_ns", lambda: later)  # every wrapper has settled
    assert made.check() == []
    reads: list[Path] = []
    real_read = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: reads.append(self) or real_read(self, *a, **k))
    assert made.check() == []
    assert reads == []
    same_size = (made.dir / "cp").read_text().replace("real program", "real PROGRAM")
    replaced = made.dir / "cp.new"
    replaced.write_text(same_size)
    replaced.chmod(0o555)
    os.replace(replaced, made.dir / "cp")  # another file in its place: another inode and change time
    assert any("cp" in p for p in made.check())
    assert made.check() == []


def test_a_wrapper_changed_in_the_last_clock_tick_is_read_whole(
    shim: tuple[Shim, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    made, _ = shim
    cp = made.dir / "cp"
    now = os.lstat(cp).st_ctime_ns + 10**10
    monkeypatch.setattr(settled.time, "time_ns", lambda: now)
    assert made.check() == []
    text = cp.read_text()
    cp.chmod(0o755)
    cp.write_text(text.replace("real program", "real PROGRAM"))
    cp.chmod(0o555)
    st = os.lstat(cp)
    # the change left the signature as the check knew it (a change in the same tick could): the change
    # time is then too recent to be trusted, and the wrapper is read
    now = st.st_ctime_ns + 1
    made._seen["cp"] = (st.st_dev, st.st_ino, st.st_size, st.st_mode, st.st_mtime_ns, st.st_ctime_ns)
    assert any("cp" in p for p in made.check())
