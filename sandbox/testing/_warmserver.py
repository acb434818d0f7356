"""The child side of :mod:`sandbox.testing.warm`: an interpreter that has imported the test driver once and
forks a fresh copy of itself per test run, one run at a time.

Started as ``python -I -B _warmserver.py [--uid UID] [--jailed]`` (inside the same jail, or network cut, and
minimal environment as a fresh run; with ``--uid`` each child drops to that uid, and no group, before any test
code runs, as a fresh run's jail does: the server itself keeps only ``CAP_SETUID``, ``CAP_SETGID`` and
``CAP_KILL``). It imports nothing of scopewatch and never runs workspace code
itself, so each forked child starts from the same clean state a fresh ``python -I`` would, minus the
start-up. Protocol, one line each way: the parent writes ``SPEC<TAB>FOLDER``; the server forks a child
that moves to FOLDER, points HOME and TMPDIR at FOLDER/home, sends its output to FOLDER/output.txt and
runs the driver on SPEC; when the child has ended (or was killed at the spec's ``timeout``) and
everything it left is gone, the server answers ``exit <CODE>`` (``exit timeout`` when killed).

What a run leaves never reaches the next one:

- the child is non-dumpable like the server (no ptrace of the server, no ``/proc/<server>/mem`` or
  ``fd``) and closes every descriptor it inherited;
- ``--jailed`` (the server is the only process of its bubblewrap jail besides the jail's init, which
  it checks): after each run it kills every other process in the jail (``kill(-1)``: daemons that
  left the run's process group too) and waits until they are gone, then empties the jail's private
  ``/tmp``, ``/dev/shm`` and ``/dev/mqueue`` and removes its System V IPC objects; the parent checks
  the workspace mirror and the rest of the shared folder (:mod:`sandbox.workspace.mirror`);
- unjailed, the run's process group is killed (a machine without a jail isolates nothing else).

Bytecode: the spec may name workspace files the parent just wrote (``compile``); the server compiles
them before forking (compiling never runs the code) and a child's imports use that code object only
when the file still holds exactly the bytes compiled, so a module unchanged since the last run is not
compiled again and a changed one is compiled as a fresh interpreter would.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import marshal
import os
import select
import shutil
import signal
import sys
import time
import traceback
from types import CodeType


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

COMPILED_MAX = 4096
"""Code objects kept (path -> source and code); past it the cache starts afresh."""
_compiled: dict[str, tuple[bytes, CodeType]] = {}


def _precompile(paths: list[str]) -> None:
    if len(_compiled) > COMPILED_MAX:
        _compiled.clear()
    for path in paths:
        _compiled.pop(path, None)
        try:
            with open(path, "rb") as f:
                source = f.read()
            if len(source) > 1 << 20:
                continue
            code = compile(source, path, "exec", dont_inherit=True)
        except BaseException:
            continue
        _compiled[path] = (source, code)


def _use_compiled() -> None:
    """In a child: imports of a precompiled file holding the same bytes take its code object."""
    loader = importlib.machinery.SourceFileLoader
    original = loader.get_code

    def get_code(self: importlib.machinery.SourceFileLoader, fullname: str) -> CodeType | None:
        entry = _compiled.get(self.path)
        # Bytecode a test wrote meanwhile is what a fresh interpreter would weigh first: its way then.
        if entry is not None and not os.path.exists(importlib.util.cache_from_source(self.path)):
            try:
                source = self.get_data(self.path)
            except OSError:
                source = None
            if source == entry[0]:
                return entry[1]
        return original(self, fullname)

    loader.get_code = get_code  # type: ignore[method-assign, assignment]


def _child(driver: object, spec: str, folder: str, compiled: bool, uid: int | None) -> None:
    os.setsid()
    code = 1
    try:
        if uid is not None:  # as ``setpriv --reuid --regid --clear-groups``: every capability goes with root
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        out = os.open(os.path.join(folder, "output.txt"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.closerange(3, 1 << 16)  # the server's pipes
        home = os.path.join(folder, "home")
        os.environ["HOME"] = home
        os.environ["TMPDIR"] = home
        os.chdir(folder)
        if compiled:
            _use_compiled()
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


def _wait(pid: int, timeout: float | None) -> int | None:
    """The child's exit code, or None when it ran past ``timeout`` (then its group is killed)."""
    pidfd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)
    if not ready:
        _kill_group(pid)
        os.waitpid(pid, 0)
        return None
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _others() -> list[int]:
    me = os.getpid()
    return [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, me)]


def _clear_jail(uid: int | None = None) -> None:
    """Every other process of the jail killed and gone; its private temp folders and IPC emptied (as ``uid``,
    the runs' owner, when they ran as one: the server has no right to another uid's files)."""
    deadline = time.monotonic() + 10
    while _others():
        try:
            os.kill(-1, signal.SIGKILL)  # all but the jail's init and this server
        except ProcessLookupError:
            pass
        while True:  # reap what is ours (the jail's init reaps the orphans)
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if time.monotonic() > deadline:
            raise RuntimeError("processes of a test run survived SIGKILL")
        time.sleep(0.0005)
    left = _left_in_folders()
    ipc = _sysv_ipc()
    if not left and not ipc:
        return  # the usual case: no change of uid (and no ctypes) needed
    if uid is not None:
        os.setresuid(-1, uid, -1)
    try:
        _clear_folders(left)
        _clear_sysv_ipc(ipc)
    finally:
        if uid is not None:
            os.setresuid(-1, 0, -1)
            _non_dumpable()  # a change of the effective uid resets it to fs.suid_dumpable


def _left_in_folders() -> list[str]:
    """What is in the jail's ``/tmp``, ``/dev/shm`` and ``/dev/mqueue``, but the server's own folder."""
    left: list[str] = []
    for folder in ("/tmp", "/dev/shm", "/dev/mqueue"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            if not (_AREA == path or _AREA.startswith(path + "/")):  # bound from the host (the parent tidies it)
                left.append(path)
    return left


def _clear_folders(left: list[str]) -> None:
    for path in left:
        if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def _sysv_ipc() -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        found += [(kind, int(row.split()[1])) for row in rows if row.strip()]
    return found


def _clear_sysv_ipc(found: list[tuple[str, int]]) -> None:
    if not found:
        return
    libc = _libc()
    ipc_rmid = 0
    for kind, ident in found:
        if kind == "shm":
            libc.shmctl(ident, ipc_rmid, None)  # type: ignore[attr-defined]
        elif kind == "msg":
            libc.msgctl(ident, ipc_rmid, None)  # type: ignore[attr-defined]
        else:
            libc.semctl(ident, 0, ipc_rmid)  # type: ignore[attr-defined]


def _libc() -> object:
    """libc through ctypes, leaving ``sys.modules`` as it was (a fresh interpreter has no ctypes)."""
    before = set(sys.modules)
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for name in set(sys.modules) - before:
        del sys.modules[name]
    return libc


def _non_dumpable() -> None:
    """No ptrace of this server, nor its ``/proc`` memory and descriptors, from a test's process."""
    pr_set_dumpable = 4
    if _libc().prctl(pr_set_dumpable, 0, 0, 0, 0) != 0:  # type: ignore[attr-defined]
        raise OSError("prctl(PR_SET_DUMPABLE) failed")


def _in_own_jail() -> bool:
    try:
        with open("/proc/1/comm") as f:
            return os.getpid() != 1 and f.read().strip() == "bwrap"
    except OSError:
        return False


def _serve_one(driver: object, line: str, jailed: bool, uid: int | None = None) -> str:
    spec_path, folder = line.split("\t")
    with open(spec_path, "rb") as f:
        spec = marshal.load(f)
    compile_paths = list(spec.get("compile", ()))
    _precompile(compile_paths)
    pid = os.fork()
    if pid == 0:
        _child(driver, spec_path, folder, bool(spec.get("bytecode", False)), uid)
    code = _wait(pid, spec.get("timeout"))
    if jailed:
        _clear_jail(uid)
    else:
        _kill_group(pid)
    return "exit timeout" if code is None else f"exit {code}"


_AREA = os.getcwd()
"""The server's folder (its cwd at start): the one host folder its jail may write."""


def main(argv: list[str]) -> int:
    jailed = "--jailed" in argv
    uid = int(argv[argv.index("--uid") + 1]) if "--uid" in argv else None
    if jailed and not _in_own_jail():
        sys.stderr.write("not in a jail of its own: refusing to kill(-1)\n")
        return 3
    _non_dumpable()
    driver = _driver()
    for line in sys.stdin:
        reply = _serve_one(driver, line.rstrip("\n"), jailed, uid)
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
