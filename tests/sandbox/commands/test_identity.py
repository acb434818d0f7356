"""Programs by what they are (sandbox/identity.py) and the trace facts that identity needs (an exec by
a thread, renames and hard links), on hand-made files and hand-written traces."""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from sandbox.commands.hooks import hook_writes
from sandbox.commands.identity import ProgramIndex, loader_target
from sandbox.commands.images import ExecImages, image_at
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
    t = time.time() - 10  # strace's clock is the engine's: these lines are 10 s old when read
    lines = [
        f'{me} {t:.6f} execveat(3</memfd:innocent>(deleted), "", ["innocent", "-V"], 0x1 /* 0 */, AT_EMPTY_PATH) = 0\n',
        f'{me} {t + 1:.6f} execve("/proc/self/fd/4", ["x"], 0x1 /* 0 vars */ <unfinished ...>\n',
        f"{me + 1} {t + 1.1:.6f} +++ exited with 0 +++\n",
        f"{me} {t + 1.5:.6f} <... execve resumed>) = 0\n",
    ]
    index = ProgramIndex({"python3": python})
    images = ExecImages(index)
    data = "".join(lines).encode()
    images.feed(data[:50])  # a line cut between two reads of the pipe
    images.feed(data[50:])
    assert set(images.found) == {(me, round(t, 6)), (me, round(t + 1.5, 6))}
    trace = parse(lines)
    assert [e.file for e in trace.execs[:2]] == ["fd 3</memfd:innocent>(deleted)", "/proc/self/fd/4"]
    first, second = trace.execs
    # the first reading was taken after the process's next exec began: it may be that one's
    assert image_at(first, trace, images.found) is None
    fresh = parse(
        [
            lines[0].replace(f"{t:.6f}", f"{t - 10:.6f}"),
            *(line.replace(f"{t + 1:.6f}", f"{t + 20:.6f}") for line in lines[1:]),
        ]
    )
    early = {(me, fresh.execs[0].ts): images.found[(me, round(t, 6))]}
    assert image_at(fresh.execs[0], fresh, early) is not None  # read before the next exec began: its own
    known = index.identify(second.file, second.argv, image=image_at(second, trace, images.found))
    assert known.known and known.argv == ("python3",)
    unread = index.identify(first.file, first.argv, image=image_at(first, trace, {}))
    assert not unread.known and unread.argv == ("innocent", "-V")  # its caller's name, nothing more
    # a reading taken once the process ended may be of a new process with its pid: not taken
    ended = parse([*lines, f"{me} {t + 1.6:.6f} +++ exited with 0 +++\n"])
    assert image_at(ended.execs[1], ended, images.found) is None


def test_a_file_swapped_after_its_program_ran_is_what_ran(tmp_path: Path) -> None:
    """The identity read race (issue 24): a file read after the command is not what ran when it
    was renamed over or rewritten once its program ended; the reading taken while it ran wins."""
    real = tmp_path / "git"
    real.write_bytes(b"\x7fELF pretend git " * 100)
    other = tmp_path / "bash"
    other.write_bytes(b"\x7fELF pretend bash " * 100)
    index = ProgramIndex({"git": str(real)})
    ran_git, ran_bash = index.of_file(str(real)), index.of_file(str(other))
    swapped = tmp_path / "x"
    shutil.copy(real, swapped)  # holds git now; bash ran
    by_path = index.identify(str(swapped), ["x", "-c", "git reset --hard"])
    assert by_path.known
    ran = index.as_ran(by_path, ran_bash, str(swapped))
    assert not ran.known and ran.key == ran_bash.key and ran.argv == ("x", "-c", "git reset --hard")
    swapped.write_bytes(b"\x7fELF something else")  # git ran; something else now
    ran = index.as_ran(index.identify(str(swapped), ["x", "push"]), ran_git, str(swapped))
    assert ran.known and ran.argv == ("git", "push")
    script = tmp_path / "git-tool"
    script.write_text("#!/usr/bin/git\n")  # a script: the image is its interpreter
    assert not index.as_ran(index.identify(str(script), ["git-tool"]), ran_git, str(script)).known
    loader = index.identify("/lib64/ld-linux-x86-64.so.2", ["ld", str(real), "push"])
    assert index.as_ran(loader, ran_bash, "/lib64/ld-linux-x86-64.so.2") == loader


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
    assert hook_writes(trace, Path("/w")) == ((".git/hooks/post-commit", ("b/notes.txt", "c.txt", "d.txt")),)


def test_an_exec_line_with_a_huge_argv_is_read_by_its_head_and_end() -> None:
    me = os.getpid()
    line = f'{me} 5.0 execve("/proc/self/fd/3", ["x", "{"a" * 300_000}"], 0x1 /* 0 vars */) = 0\n'.encode()
    images = ExecImages(ProgramIndex({"python3": os.path.realpath(sys.executable)}))
    for i in range(0, len(line), 65536):
        images.feed(line[i : i + 65536])
    assert set(images.found) == {(me, 5.0)}


def test_an_interpreter_line_is_read_as_the_kernel_reads_it(tmp_path: Path) -> None:
    """The interpreter, and the rest of the line as one argument; a file without ``#!``, a FIFO (never
    waited on) and a missing file are no scripts."""
    index = ProgramIndex({})
    cases = {
        "plain": (b"#!/usr/bin/python3\nprint(1)\n", ("/usr/bin/python3", None)),
        "spaced": (b"#! /usr/bin/env  python3 -u \n", ("/usr/bin/env", "python3 -u")),
        "tab": (b"#!/bin/cat\t-n\n", ("/bin/cat", "-n")),
        "unended": (b"#!/bin/sh", ("/bin/sh", None)),
        "empty": (b"#!\n", None),
        "binary": (b"\x7fELF\x02", None),
    }
    for name, (data, _) in cases.items():
        (tmp_path / name).write_bytes(data)
    assert {name: index.shebang(name, str(tmp_path)) for name in cases} == {n: want for n, (_, want) in cases.items()}
    os.mkfifo(tmp_path / "fifo")
    assert index.shebang(str(tmp_path / "fifo")) is None
    assert index.shebang(str(tmp_path / "missing")) is None
