"""The child side of :mod:`sandbox.warm`: an interpreter that has imported the test driver once and
forks a fresh copy of itself per test run.

Started as ``python -I -B _warmserver.py`` (inside the same network cut and minimal environment as a
fresh run). It imports nothing of scopewatch and never imports a workspace module itself, so each
forked child starts from the same clean state a fresh ``python -I`` would, minus the start-up.
Protocol, one line each way: the parent writes ``SPEC<TAB>FOLDER``; the server forks a child that
moves to FOLDER, points HOME and TMPDIR at FOLDER/home, sends its output to FOLDER/output.txt and
runs the driver on SPEC; the server answers ``pid <PID>`` at once and ``exit <PID> <CODE>`` when the
child ends (children run concurrently; the parent kills a child's process group on timeout).
"""

from __future__ import annotations

import importlib.util
import os
import select
import sys
import traceback


def _driver() -> object:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_testdriver.py")
    spec = importlib.util.spec_from_file_location("_scopewatch_testdriver", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # What the driver imports lazily, and the standard modules workspace code commonly imports,
    # imported here once: every child has them for free (a child's changes to them die with it).
    # Nothing that draws randomness at import (random, tempfile, uuid, secrets): every child would
    # share its state, which a fresh interpreter never does.
    for name in PREIMPORTED:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    return module


PREIMPORTED = (
    "linecache", "socket", "traceback", "collections", "dataclasses", "datetime", "decimal", "enum",
    "fractions", "functools", "inspect", "itertools", "json", "math", "operator", "pathlib", "re",
    "string", "textwrap", "typing",
)  # fmt: skip


def _child(driver: object, spec: str, folder: str) -> None:
    os.setsid()
    code = 1
    try:
        out = os.open(os.path.join(folder, "output.txt"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.closerange(3, 1 << 16)  # the server's pipes and its other children's pidfds
        home = os.path.join(folder, "home")
        os.environ["HOME"] = home
        os.environ["TMPDIR"] = home
        os.chdir(folder)
        code = driver.main(spec)  # type: ignore[attr-defined]
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def main() -> int:
    driver = _driver()
    stdin = sys.stdin.buffer
    children: dict[int, int] = {}  # pidfd -> pid
    buffer = b""
    while True:
        ready, _, _ = select.select([stdin.fileno(), *children], [], [])
        for fd in ready:
            if fd in children:
                pid = children.pop(fd)
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                sys.stdout.write(f"exit {pid} {os.waitstatus_to_exitcode(status)}\n")
                sys.stdout.flush()
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                for pid in children.values():
                    os.waitpid(pid, 0)
                return 0
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                spec, folder = line.decode("utf-8").split("\t")
                pid = os.fork()
                if pid == 0:
                    _child(driver, spec, folder)
                children[os.pidfd_open(pid)] = pid
                sys.stdout.write(f"pid {pid}\n")
                sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
