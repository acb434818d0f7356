"""Programs by what they are (sandbox/identity.py) and the trace facts that identity needs (an exec by
a thread, renames and hard links), on hand-made files and hand-written traces."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from sandbox.commands.hooks import hook_writes
from sandbox.commands.identity import ProgramIndex, loader_target
from sandbox.commands.images import ExecImages, image_of
from sandbox.commands.strace import parse
from sandbox.workspace.remote import RemoteState, push_atom, read_refs, ref_updates


def test_the_loader_is_looked_through() -> None:
    assert loader_target(["ld.so", "/usr/bin/git", "push"]) == 1
    assert loader_target(["ld.so", "--library-path", "/x", "--inhibit-cache", "/usr/bin/git"]) == 4
    assert loader_target(["ld.so", "--list", "/usr/bin/git"]) is None
    index = ProgramIndex({})
    program = index.identify("/lib64/ld-linux-x86-64.so.2", ["ld", "/usr/bin/git", "push", "origin", "main"])
    assert program.argv == ("git", "push", "origin", "main")


def test_a_copy_a_link_and_a_dashed_name_are_the_program_and_a_namesake_is_not(tmp_path: Path) -> None:
    real = tmp_path / "git"
    real.write_bytes(b"\x7fELF pretend git " * 100)
    index = ProgramIndex({"git": str(real)})
    shutil.copy(real, tmp_path / "g")
    os.link(real, tmp_path / "hard")
    (tmp_path / "git-push").symlink_to(real)
    (tmp_path / "jailtmp").mkdir()
    shutil.copy(real, tmp_path / "jailtmp" / "x")
    for name in ("g", "hard"):
        assert index.identify(str(tmp_path / name), [name, "push"]).argv == ("git", "push")
    jailed = ProgramIndex({"git": str(real)}, jail_tmp=tmp_path / "jailtmp")
    assert jailed.identify("/tmp/x", ["x", "push"]).argv == ("git", "push")  # the jail's /tmp
    dashed = index.identify(str(tmp_path / "git-push"), ["git-push", "origin", "main"])
    assert dashed.argv == ("git", "push", "origin", "main") and dashed.key == "git"
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "git").write_bytes(b"#!/bin/sh\n" + b"x" * (real.stat().st_size - 10))  # same size
    fake = index.identify(str(tmp_path / "fake" / "git"), ["git", "push"])
    assert not fake.known and fake.key != "git" and fake.argv == ("git", "push")


def test_an_exec_by_a_thread_is_the_process_it_becomes() -> None:
    trace = parse(
        [
            '20 1.0 execve("/usr/bin/python3", ["python3"], 0x1 /* 1 var */) = 0\n',
            '21 1.1 execve("/usr/bin/git", ["git", "push"], 0x1 /* 1 var */ <pid changed to 20 ...>\n',
            "20 1.2 +++ superseded by execve in pid 21 +++\n",
            "20 1.3 <... execve resumed>) = ?\n",
        ]
    )
    assert [(e.pid, e.file, e.argv) for e in trace.execs][1] == (20, "/usr/bin/git", ("git", "push"))


def test_renames_and_links_are_read_with_their_folders() -> None:
    trace = parse(
        [
            '30 1.0 execve("/usr/bin/mv", ["mv"], 0x1 /* 1 var */) = 0\n',
            '30 1.1 openat(AT_FDCWD</home/u>, "x", O_RDONLY) = 3</home/u/x>\n',
            '30 1.2 renameat2(AT_FDCWD</home/u>, ".bash_history", AT_FDCWD</tmp>, "h", RENAME_NOREPLACE) = 0\n',
            '30 1.3 linkat(AT_FDCWD</home/u>, "a", AT_FDCWD</home/u>, "/home/u/b", 0) = 0\n',
            '30 1.4 rename("c", "/abs/d") = 0\n',
        ]
    )
    assert [(m.src, m.dst) for m in trace.moves] == [
        ("/home/u/.bash_history", "/tmp/h"), ("/home/u/a", "/home/u/b"), ("/home/u/c", "/abs/d"),
    ]  # fmt: skip


def test_a_remote_update_is_classified_by_the_refs_it_changed(tmp_path: Path) -> None:
    git = tmp_path / "r.git"
    (git / "refs/heads").mkdir(parents=True)
    (git / "packed-refs").write_text("# pack-refs\naaaa refs/heads/main\n^bbbb\ncccc refs/tags/v1\n")
    (git / "refs/heads/feature").write_text("dddd\n")
    assert read_refs(git) == {"refs/heads/main": "aaaa", "refs/tags/v1": "cccc", "refs/heads/feature": "dddd"}
    before = RemoteState(read_refs(git), {})
    (git / "refs/heads/feature").unlink()  # a deleted ref is a forced update
    updates = ref_updates(git, before)
    assert [(u.ref, u.forced) for u in updates] == [("refs/heads/feature", True)]
    assert push_atom(updates) == "git_force_push"


def test_an_exec_by_descriptor_is_known_by_the_image_its_process_runs(tmp_path: Path) -> None:
    """``fexecve`` (``execveat`` with an empty path) and ``/proc/self/fd/N`` name no file to look at
    later: the image is read from ``/proc/PID/exe`` while the process runs (this test's own process
    stands in for it: it runs the Python interpreter), and a process read too late is unidentified."""
    me, python = os.getpid(), os.path.realpath(sys.executable)
    lines = [
        f'{me} 1.0 execveat(3</memfd:innocent>(deleted), "", ["innocent", "-V"], 0x1 /* 0 */, AT_EMPTY_PATH) = 0\n',
        f'{me} 2.0 execve("/proc/self/fd/4", ["x"], 0x1 /* 0 vars */ <unfinished ...>\n',
        f"{me + 1} 2.1 +++ exited with 0 +++\n",
        f"{me} 2.5 <... execve resumed>) = 0\n",
        f'{me} 3.0 execve("/usr/bin/true", ["true"], 0x1 /* 0 vars */) = 0\n',
    ]
    index = ProgramIndex({"python3": python})
    images = ExecImages(index)
    data = "".join(lines).encode()
    images.feed(data[:50])  # a line cut between two reads of the pipe
    images.feed(data[50:])
    assert set(images.found) == {(me, 1.0), (me, 2.5)}
    trace = parse(lines)
    assert [e.file for e in trace.execs[:2]] == ["fd 3</memfd:innocent>(deleted)", "/proc/self/fd/4"]
    first = trace.execs[0]
    known = index.identify(first.file, first.argv, image=image_of(first, trace.execs, images.found, index))
    assert known.known and known.argv == ("python3", "-V")
    unread = index.identify(first.file, first.argv, image=image_of(first, trace.execs, {}, index))
    assert not unread.known and unread.argv == ("innocent", "-V")  # its caller's name, nothing more
    # an image that is the file of a later exec of the same process may be that one's: not taken
    later = [*trace.execs, replace(trace.execs[-1], file=python, ts=9.0)]
    assert image_of(first, later, images.found, index) is None


def test_a_hooks_writes_are_its_process_trees_outside_git() -> None:
    trace = parse(
        [
            '40 1.0 execve("/usr/bin/git", ["git", "commit"], 0x1 /* 1 var */) = 0\n',
            '40 1.1 openat(AT_FDCWD</w>, "a.py", O_WRONLY|O_TRUNC) = 3</w/a.py>\n',
            "40 1.2 clone(child_stack=NULL, flags=SIGCHLD) = 41\n",
            '41 1.3 execve(".git/hooks/post-commit", [".git/hooks/post-commit"], 0x1 /* 1 var */) = 0\n',
            '41 1.4 openat(AT_FDCWD</w>, ".git/hooks/post-commit", O_RDONLY) = 3</w/.git/hooks/post-commit>\n',
            "41 1.5 clone(child_stack=NULL, flags=SIGCHLD) = 42\n",
            '42 1.6 openat(AT_FDCWD</w>, "b/notes.txt", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3</w/b/notes.txt>\n',
            '42 1.7 openat(AT_FDCWD</w>, ".git/index", O_RDWR) = 3</w/.git/index>\n',
            '42 1.8 rename("/w/c.txt", "/w/d.txt") = 0\n',
            '42 1.9 openat(AT_FDCWD</w>, "e.txt", O_RDONLY) = 3</w/e.txt>\n',
        ]
    )
    assert hook_writes(trace, Path("/w")) == (("post-commit", ("b/notes.txt", "c.txt", "d.txt")),)


def test_an_exec_line_with_a_huge_argv_is_read_by_its_head_and_end() -> None:
    me = os.getpid()
    line = f'{me} 5.0 execve("/proc/self/fd/3", ["x", "{"a" * 300_000}"], 0x1 /* 0 vars */) = 0\n'.encode()
    images = ExecImages(ProgramIndex({"python3": os.path.realpath(sys.executable)}))
    for i in range(0, len(line), 65536):
        images.feed(line[i : i + 65536])
    assert set(images.found) == {(me, 5.0)}
