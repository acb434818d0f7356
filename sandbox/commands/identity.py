"""Programs by what they are, not by the name they were run under.

The tracer sees the path a process handed to ``execve``; that name is the caller's choice. A copy of
``git`` called ``g``, a symlink, a hard link, git's own sub-command binaries
(``/usr/lib/git-core/git-push``, a file of its own with git's bytes), ``/lib64/ld-linux-x86-64.so.2
/usr/bin/git`` (the dynamic loader running the program it is given): each is git. So a program is
identified by the file the kernel ran:

- its identity (device + inode, after following symlinks) against the registry's programs on this
  machine, then its content (a SHA-256, computed only for a file of exactly the size of one of them,
  so an ordinary exec costs one ``stat``);
- the dynamic loader is looked through: the program is its first operand (after the loader's own
  options), as the loader itself reads it;
- a file of a known program run under the name ``NAME-SUB`` (git's ``git-push``, ``git-send-pack``)
  is ``NAME SUB``: git's dashed form of its sub-commands.

A file that carries a known program's *name* but is not that program (a renamed shell called
``git``) keeps its name for classification, but its identity (:attr:`Program.key`) is its own, so it
never makes the real program it runs look like that program's own internal work.

The shim's wrappers are known the same way (:meth:`ProgramIndex.wrapper`): a copy of one under
another name (``cp $(command -v git) /tmp/g``) is that wrapper, run; its record is no forgery.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

LOADER = re.compile(r"^ld(-linux[-.\w]*|-musl-[\w]+)?\.so(\.\d+)*$")
"""The file names of the dynamic loader (glibc's ``ld-linux-x86-64.so.2``, ``ld.so``, musl's)."""
_LOADER_VALUED = frozenset({"--library-path", "--preload", "--argv0", "--audit", "--inhibit-rpath"})
"""The loader's options that take a value (``ld.so --help``)."""
BY_DESCRIPTOR = re.compile(r"^(?:fd |/proc/(?:self|thread-self|\d+)/(?:fd/\d+|exe)$|/dev/fd/\d+$)")
"""The file of an exec (as :mod:`sandbox.commands.strace` gives it) that names a descriptor: an
``execveat`` with an empty path (``fd 3</memfd:x>``), or a descriptor's ``/proc`` or ``/dev/fd`` link;
or a process's image (``/proc/self/exe``: a program re-executing itself, as Codex runs each command
through its own helper). Such a link means the *jail's* process's file: read from the engine, it
would be the engine's own (its Python, which the shim covers: taken for a wrapper)."""
SELF_IMAGE = re.compile(r"^/proc/(?:self|thread-self)/exe$")
"""The exec of a process's own image: the program it runs already (the last it ran, or its parent's)."""
_HASHED_MAX = 256 * 2**20
"""Files larger than this are never hashed (no registry program is this big)."""


@dataclass(frozen=True)
class Program:
    """What an exec ran: ``name`` classifies it (a known program's, else the file's name), ``argv``
    is what that program was given (with ``name`` first), ``key`` tells programs apart (the known
    program's name, else the file's device and inode, else its path)."""

    name: str
    argv: tuple[str, ...]
    key: str
    known: bool


SHEBANG_MAX = 256
"""Bytes of a script's first line the kernel reads for its interpreter (``BINPRM_BUF_SIZE``)."""


@dataclass(frozen=True)
class Image:
    """The file a process runs, as the kernel mapped it (read through ``/proc/PID/exe``): the registry
    program it is (None: none), and its identity key (as :attr:`Program.key`)."""

    known: str | None
    key: str


def by_descriptor(file: str) -> bool:
    """Whether an exec's ``file`` names a descriptor or a process's image, not a file (see :data:`BY_DESCRIPTOR`)."""
    return BY_DESCRIPTOR.match(file) is not None


def re_executes(file: str) -> bool:
    """Whether an exec's ``file`` is its process's own image (see :data:`SELF_IMAGE`)."""
    return SELF_IMAGE.match(file) is not None


def loader_target(argv: Sequence[str]) -> int | None:
    """The index in ``argv`` (the loader's own) of the program the dynamic loader runs, or None when
    it runs none (``ld.so --list``, ``--help``, no operand)."""
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            return i + 1 if i + 1 < len(argv) else None
        if arg in _LOADER_VALUED:
            i += 2
            continue
        if arg in ("--list", "--verify", "--help", "--version", "--list-tunables", "--list-diagnostics"):
            return None
        if arg.startswith("--"):
            i += 1
            continue
        return i
    return None


class ProgramIndex:
    """The registry's programs on this machine (command name -> file), by identity and by content.
    ``mounts`` (a file as the jail sees it -> the host's file mounted there) and ``jail_tmp`` (the
    host folder that is the jail's ``/tmp``) map the paths the trace shows to the engine's."""

    def __init__(
        self,
        programs: Mapping[str, str],
        *,
        mounts: Mapping[str, str] | None = None,
        jail_tmp: Path | None = None,
        wrappers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        root: str = "",
    ) -> None:
        self._mounts = dict(mounts or {})
        self._root = root
        """A prefix that reaches the jail's files from the engine (a container's ``/proc/PID/root``)."""
        self._wrappers: dict[int, list[tuple[bytes, str]]] = {}  # size -> (wrapper text, command)
        pairs = wrappers.items() if isinstance(wrappers, Mapping) else wrappers or ()
        for command, text in sorted(pairs):
            data = text.encode()
            self._wrappers.setdefault(len(data), []).append((data, command))
        self._by_inode: dict[tuple[int, int], str] = {}
        self._by_size: dict[int, list[tuple[str, str]]] = {}
        self._digests: dict[str, str] = {}  # known file -> sha256
        self._jail_tmp = jail_tmp
        for name, path in sorted(programs.items()):
            try:
                st = os.stat(self._root + path)
            except OSError:
                continue
            self._by_inode.setdefault((st.st_dev, st.st_ino), name)
            self._by_size.setdefault(st.st_size, []).append((self._root + path, name))

    def host_path(self, path: str) -> str:
        """``path`` as the engine sees it (the jail's ``/tmp`` is the sandbox's ``agent-tmp``)."""
        path = os.path.normpath(path) if path.startswith("/") else path
        if path in self._mounts:
            return self._mounts[path]
        if self._jail_tmp is not None and (path == "/tmp" or path.startswith("/tmp/")):
            return str(self._jail_tmp) + path[len("/tmp") :]
        return self._root + path if path.startswith("/") else path

    def wrapper(self, path: str, cwd: str = "") -> str | None:
        """The command whose shim wrapper the file ``path`` is, by its bytes (a copy of a wrapper
        under any name), or None. Only a file of exactly a wrapper's size is read."""
        full = path if path.startswith("/") or not cwd else os.path.join(cwd, path)
        host = self.host_path(full)
        try:
            candidates = self._wrappers.get(os.stat(host).st_size)
        except OSError:
            return None
        data = _read_regular(host, max(len(text) for text, _ in candidates) + 1) if candidates else None
        return next((name for text, name in candidates or () if text == data), None)

    def shebang(self, path: str, cwd: str = "") -> tuple[str, str | None] | None:
        """The interpreter line of the script ``path`` as the kernel reads it (its first
        :data:`SHEBANG_MAX` bytes: the interpreter, and the rest of the line as one argument, or None),
        or None when the file is no script (or not a regular file: a FIFO is never waited on)."""
        full = path if path.startswith("/") or not cwd else os.path.join(cwd, path)
        data = _read_regular(self.host_path(full), SHEBANG_MAX)
        if data is None or not data.startswith(b"#!"):
            return None
        line = data[2:].split(b"\n", 1)[0].strip(b" \t")
        interpreter, _, rest = line.replace(b"\t", b" ").partition(b" ")
        if not interpreter:
            return None
        argument = rest.strip(b" ")
        return os.fsdecode(interpreter), os.fsdecode(argument) if argument else None

    def name_of(self, path: str, cwd: str = "") -> tuple[str | None, str]:
        """(the registry command ``path`` is, or None; its identity key)."""
        if not path:
            return None, "path:"
        full = path if path.startswith("/") or not cwd else os.path.join(cwd, path)
        host = self.host_path(full)
        try:
            st = os.stat(host)
        except OSError:
            return None, f"path:{full}"
        return self._known(host, st)

    def of_process(self, pid: int) -> Image | None:
        """The program process ``pid`` (host PID) runs now, by the file the kernel mapped (its
        ``/proc/PID/exe``: a memfd or a deleted file too); None when the process is gone."""
        return self.of_file(f"{self._root}/proc/{pid}/exe")

    def of_file(self, path: str) -> Image | None:
        """The file ``path`` (the engine's) as an :class:`Image`; None when it is not there."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        return Image(*self._known(path, st))

    def _known(self, host: str, st: os.stat_result) -> tuple[str | None, str]:
        """(the registry command the file ``host`` with status ``st`` is, or None; its key)."""
        key = f"inode:{st.st_dev}:{st.st_ino}"
        known = self._by_inode.get((st.st_dev, st.st_ino))
        if known is not None:
            return known, known
        candidates = self._by_size.get(st.st_size)
        if not candidates or st.st_size > _HASHED_MAX:
            return None, key
        digest = _sha256(host)
        for file, name in candidates:
            if digest is not None and digest == self._digest(file):
                return name, name
        return None, key

    def _digest(self, file: str) -> str | None:
        if file not in self._digests:
            self._digests[file] = _sha256(file) or ""
        return self._digests[file] or None

    def as_ran(self, program: Program, image: Image | None, file: str, cwd: str = "") -> Program:
        """``program`` (an exec of ``file`` by its path, identified after the command) corrected by
        ``image``, what the kernel mapped for it while it ran (:mod:`sandbox.commands.images`): a file
        that holds a known program now but ran another one was swapped in after (it is what ran); a file
        that ran a known program and holds something else now was swapped out (it was that program),
        unless it is a script (``#!``: the image is its interpreter). Through the dynamic loader the
        image is the loader: nothing to correct."""
        if (
            image is None
            or image.known == (program.name if program.known else None)
            or LOADER.match(PurePosixPath(file).name)
        ):
            return program
        base = PurePosixPath(file).name
        if image.known is None:
            return Program(base, (base, *program.argv[1:]), image.key, known=False)
        full = file if file.startswith("/") or not cwd else os.path.join(cwd, file)
        if not program.known and (_read_regular(self.host_path(full), 2) or b"") == b"#!":
            return program
        return self._named(image.known, base, (file, *program.argv[1:]), image.key)

    def _named(self, known: str, base: str, args: tuple[str, ...], key: str) -> Program:
        """The known program ``known`` run under the file name ``base`` with ``args`` (git's dashed
        sub-commands: ``git-push`` is ``git push``)."""
        if base != known and base.startswith(known + "-") and len(base) > len(known) + 1:
            return Program(known, (known, base[len(known) + 1 :], *args[1:]), known, known=True)
        return Program(known, (known, *args[1:]), known, known=True)

    def identify(self, file: str, argv: Sequence[str], cwd: str = "", image: Image | None = None) -> Program:
        """The program an exec of ``file`` with ``argv`` runs (see the module); ``image``: the file
        the kernel mapped for it, when ``file`` names no file (a descriptor, :mod:`sandbox.commands.images`)."""
        args = tuple(argv) or (file,)
        if image is not None or by_descriptor(file):
            base = PurePosixPath(args[0]).name  # the only name it has: its caller's choice
            known, key = (image.known, image.key) if image is not None else (None, f"path:{file}")
        else:
            if LOADER.match(PurePosixPath(file).name):
                target = loader_target(args)
                if target is not None:
                    file, args = args[target], args[target:]
            base = PurePosixPath(file).name
            known, key = self.name_of(file, cwd)
        if known is None:
            return Program(base, (base, *args[1:]), key, known=False)
        return self._named(known, base, args, key)


def _open_regular(path: str) -> int | None:
    """A descriptor on ``path`` if it is a regular file now (never blocks: a FIFO put in its place
    between a ``stat`` and the open is not waited on), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _read_regular(path: str, limit: int) -> bytes | None:
    fd = _open_regular(path)
    if fd is None:
        return None
    try:
        return os.read(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def _sha256(path: str) -> str | None:
    fd = _open_regular(path)
    if fd is None:
        return None
    digest = hashlib.sha256()
    try:
        with os.fdopen(fd, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()
