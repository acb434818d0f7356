"""The shell shim: one small shell wrapper per sensitive command, per sandbox, and the audit channel
its records travel on.

Each wrapper runs the real program, then writes one record (actor, cwd, start and end time, exit
code, argv; NUL-separated so that any argument survives) into the sandbox's *audit channel*: a FIFO
the engine holds open for reading (:class:`AuditChannel`). Its path is baked into the wrapper and
never exported to the shell. The FIFO is write-only to its owner and, under bubblewrap and unshare,
sits in a read-only mount: an agent's process cannot read records back out (erase them), delete or
replace the FIFO, or change a wrapper. Under bubblewrap and unshare the wrappers are also mounted
over the real programs (``/usr/bin/git``, ``/bin/rm``, ...), so a call by absolute path is recorded
too; the real programs are reached at ``<base>/real/<name>``.

What stays possible, and is reported as ``ShimTampered`` (a critical trap for the actor) where it can
be seen: at isolation level ``none``, changing or removing a wrapper or the FIFO (checked before and
after every command, and put back); writing a malformed record into the channel. What cannot be
seen here: a program that runs a real program by its private path, or writes a well-formed forged
record (the exec tracer, issue #18, closes those; it also reports the program behind a wrapper
killed before it wrote its record).

A shimmed command costs one shell start more than the bare program (plus one fork where it covers a
real program). A command not installed here is still recorded (exit code 127).

Where commands run under the exec tracer (:mod:`sandbox.commands.tracer`), a wrapper writes its record *first*
(no end time, no exit code) and then replaces itself with the real program (``exec -a``): the fork and the wait
are spared (~2 ms of a traced command, docs/performance.md), and the engine completes the record from the trace
(the exit of the wrapper's process, which the program it became ends with:
:func:`~sandbox.commands.wrapped.match_records`).
Without the tracer (a container, ``SCOPEWATCH_TRACE=off``, no strace) nothing else would say how the program
ended: the wrapper runs it in a child, waits, and writes its record after.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import stat
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sandbox.jail.isolation import SYSTEM_DIRS
from sandbox.jail.sysfiles import quick_sh
from sandbox.workspace.sentry import Folders
from sandbox.workspace.settled import SETTLED_NS

MAGIC = b"SWREC1"
END = b"\x1eSWEND"

_WRAPPER = """#!{shell}
# scopewatch shim for `{name}`: run the real program, then record the call. Its shell takes no startup file,
# function or option from the caller's environment (bash's `-p`; lksh takes none), so the caller's
# environment cannot change what it runs or stop it writing its record.
__sw_t0=$EPOCHREALTIME
{run}
__sw_rc=$?
__sw_t1=$EPOCHREALTIME
builtin printf '%s\\0' SWREC1 "${{SCOPEWATCH_ACTOR:-}}" "$PWD" "$__sw_t0" "$__sw_t1" "$__sw_rc" {qname} "$@" \\
  $'\\x1eSWEND' >> {fifo} 2>&-
exit $__sw_rc
"""


_WRAPPER_FIRST = """#!{shell}
# scopewatch shim for `{name}`: record the call, then become the real program (the exec tracer says how it
# ended). Its shell takes no startup file, function or option from the caller's environment (bash's `-p`;
# lksh takes none), so the caller's environment cannot change what it runs or stop it writing its record.
builtin printf '%s\\0' SWREC1 "${{SCOPEWATCH_ACTOR:-}}" "$PWD" "$EPOCHREALTIME" '' '' {qname} "$@" \\
  $'\\x1eSWEND' >> {fifo} 2>&-
{run}
"""


class ShimUnavailable(RuntimeError):
    """No bash on this machine: the shim cannot be installed."""


@dataclass(frozen=True)
class ShimRecord:
    """One recorded invocation of a shimmed command."""

    actor: str
    cwd: str
    argv: tuple[str, ...]
    exit_code: int
    started: float
    duration_ms: float
    ended: bool = True
    """The record says how the program ended; False: written before it ran (a traced wrapper's, ``exit_code`` -1
    and ``duration_ms`` 0 until the trace completes it)."""


def wrapper_text(shell: str, name: str, run: str, fifo: Path, *, first: bool = False) -> str:
    """The wrapper for ``name`` run by ``shell`` (its interpreter line: ``/usr/bin/bash -p``): ``run`` is the line
    that runs the real program (with ``first``, the line that becomes it, or exits: its record is written before)."""
    text = _WRAPPER_FIRST if first else _WRAPPER
    return text.format(shell=shell, name=name, qname=shlex.quote(name), run=run, fifo=shlex.quote(str(fifo)))


def in_system_dirs(program: str) -> bool:
    return any(program.startswith(d + "/") for d in SYSTEM_DIRS)


class Shim:
    """The wrappers of one sandbox (``<base>/shim``), the real programs behind them and the audit
    channel (``<base>/audit/records``). ``covering=True`` (bubblewrap, unshare): wrappers are
    mounted over the real programs in the system folders, which then run from ``<base>/real``."""

    def __init__(
        self,
        base: Path,
        commands: Iterable[str],
        search_path: str,
        *,
        covering: bool,
        container: Mapping[str, str] | None = None,
        traced: bool = False,
        hardened: bool = False,
    ) -> None:
        self.dir = base / "shim"
        self.real_dir = base / "real"
        self.audit_dir = base / "audit"
        self.fifo = self.audit_dir / "records"
        self.covering = covering
        self.search_path = search_path
        self.real: dict[str, str | None] = {}
        self.cover: list[tuple[Path, str]] = []
        self.expose: list[tuple[str, str]] = []
        self._expected: dict[str, str] = {}
        self._seen: dict[str, tuple[int, ...]] = {}
        """Wrapper -> :func:`~sandbox.workspace.settled.signature` of the file as last written or read whole:
        unchanged, it was not rewritten."""
        self._commands = tuple(sorted(commands))
        self.wrappers: dict[str, str] = {}
        """Once installed: a wrapper's path, or the program it is mounted over, -> its command."""
        self.channel: AuditChannel | None = None
        self.container = container
        """In a container (the docker backend): command -> the program the wrapper is mounted over;
        the image keeps a copy of each at ``/opt/scopewatch/real/<name>``. Commands not in it run
        by name on the container's system PATH."""
        self.first = traced and container is None
        """Wrappers write their record first and become the program (commands run under the exec tracer), until
        :meth:`record_after`."""
        self._after: dict[str, str] = {}
        """Command -> its wrapper's text when the record comes after the program (:meth:`record_after`)."""
        unwritable = hardened and covering and container is None and os.geteuid() == 0  # commands: the jail's uid
        self._watch = Folders() if unwritable else None
        """Where no command may write the wrappers (they run as the jail's uid, not root, who owns them and their
        folder: a hardened jail of an engine run as root): a watch on their folder, so :meth:`check` looks at them
        only after an event there (an entry made, removed, renamed, written, or its owner or mode changed: every
        change, and only root's can come)."""

    def install(self) -> None:
        """Write the wrappers, open the audit channel."""
        bash = "/bin/bash" if self.container is not None else shutil.which("bash", path=self.search_path)
        if bash is None:
            raise ShimUnavailable("the shell shim needs bash")
        shell = self._host_shell(bash) if self.container is None else ""  # a container's wrappers: its bash
        for name in self._commands if self.container is None else ():
            self._expected[name], self._after[name] = self._host_wrapper(shell, name)
        for name, program in (self.container or {}).items():
            if name in self._commands:
                self.cover.append((self.dir / name, program))
        for name in self._commands if self.container is not None else ():
            if name in (self.container or {}):
                run = f'(exec -a {shlex.quote(name)} /opt/scopewatch/real/{shlex.quote(name)} "$@")'
            else:
                run = f'PATH={shlex.quote(self.search_path)} {shlex.quote(name)} "$@"'
            self._expected[name] = wrapper_text(f"{bash} -p", name, run, self.fifo)
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.covering and self.container is None:
            self.real_dir.mkdir(exist_ok=True)
            for _, inside in self.expose:
                Path(inside).touch()  # a mount point for the real program
        self._write_wrappers(self._expected)
        self.wrappers = {str(self.dir / name): name for name in self._commands}
        self.wrappers.update({program: wrapper.name for wrapper, program in self.cover})
        self.audit_dir.mkdir(exist_ok=True)
        self.channel = AuditChannel(self.fifo)

    @property
    def texts(self) -> list[tuple[str, str]]:
        """(command, a text its wrapper has or may come to have): a copy of a wrapper is known by it."""
        return sorted({*self._expected.items(), *self._after.items()})

    def record_after(self) -> None:
        """From now on the wrappers run the program in a child and write their record after it, as untraced ones
        do: a live agent process's shimmed programs' records are read as they come, with no trace to say how they
        ended (:mod:`sandbox.backends.aftermath`), and a push's record must come after the push. Written in place:
        a jail's mounts over the system's programs show the same files."""
        if not self.first:
            return
        self.first = False
        for name, text in self._after.items():
            wrapper = self.dir / name
            with contextlib.suppress(OSError):
                wrapper.chmod(0o755)
                with wrapper.open("r+", encoding="utf-8") as f:
                    f.truncate(0)
                    f.write(text)
                wrapper.chmod(0o555)
        self._expected.update(self._after)
        self._seen.clear()

    def _host_shell(self, bash: str) -> str:
        """The host wrappers' interpreter line: ``lksh`` where it serves (:func:`~sandbox.jail.sysfiles.quick_sh`; by
        the real program's own path where the shim covers it too), else ``bash -p``."""
        found = quick_sh(self.search_path)
        if found is None:
            return f"{bash} -p"
        real = os.path.realpath(found)
        name = os.path.basename(found)
        covered = self.covering and name in self._commands and in_system_dirs(real)
        return str(self.real_dir / name) if covered else real

    def _host_wrapper(self, shell: str, name: str) -> tuple[str, str]:
        """Its wrapper's text as the sandbox starts with it, and with the record after the program."""
        program = shutil.which(name, path=self.search_path)
        self.real[name] = program
        texts = []
        for first in dict.fromkeys((self.first, False)):
            if program is None:
                missing = f"echo {shlex.quote(name + ': command not found')} >&2; "
                run = missing + ("exit 127" if first else "(exit 127)")
            elif self.covering and in_system_dirs(real := os.path.realpath(program)):
                inside = str(self.real_dir / name)
                if (real, inside) not in self.expose:
                    self.expose.append((real, inside))
                    self.cover.append((self.dir / name, real))
                run = f'exec -a {shlex.quote(program)} {shlex.quote(inside)} "$@"'
                run = run if first else f"({run})"
            else:
                run = f'{"exec " if first else ""}{shlex.quote(program)} "$@"'
            texts.append(wrapper_text(shell, name, run, self.fifo, first=first))
        return texts[0], texts[-1]

    def _write_wrappers(self, names: Iterable[str]) -> None:
        for name in names:
            wrapper = self.dir / name
            with contextlib.suppress(FileNotFoundError):
                if wrapper.is_dir() and not wrapper.is_symlink():
                    shutil.rmtree(wrapper)
                else:
                    wrapper.unlink()
            wrapper.write_text(self._expected[name])
            wrapper.chmod(0o555)
            self._seen.pop(name, None)  # read whole until it has settled (:func:`~sandbox.workspace.settled.signature`)

    def check(self) -> list[str]:
        """What was done to the wrappers or the channel since they were installed, each put back."""
        if self._watch is not None:
            if self._watch.changed() == set():  # watched, and no event since the last whole check
                problem = self.channel.check() if self.channel is not None else None
                return [problem] if problem else []
            try:  # the folder as it is now watched before it is looked at: what changes after is the next check's
                fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:
                pass  # gone: put back below, watched at the next check
            else:
                try:
                    self._watch.watch(str(self.dir), fd)
                finally:
                    os.close(fd)
        problems: list[str] = []
        changed: list[str] = []
        folder = os.fspath(self.dir)  # plain strings: this runs twice a command, for every wrapper
        seen, lstat, regular = self._seen, os.lstat, stat.S_ISREG
        recent = time.time_ns() - SETTLED_NS  # signature()'s rule, its clock read once for all the wrappers
        for name, text in self._expected.items():
            wrapper = f"{folder}/{name}"
            settled = None
            try:
                st = lstat(wrapper)
                ok = regular(st.st_mode) and st.st_mode & 0o777 == 0o555
                if ok:
                    if st.st_ctime_ns <= recent:
                        settled = (st.st_dev, st.st_ino, st.st_size, st.st_mode, st.st_mtime_ns, st.st_ctime_ns)
                    ok = (settled is not None and seen.get(name) == settled) or _read(wrapper) == text
            except (OSError, UnicodeDecodeError):
                ok = False
            if ok and settled is not None:
                seen[name] = settled
            elif not ok:
                seen.pop(name, None)
                changed.append(name)
        if changed:
            problems.append(f"shim wrappers changed or removed: {', '.join(changed)}")
            self.dir.mkdir(parents=True, exist_ok=True)
            self._write_wrappers(changed)
        with contextlib.suppress(OSError):
            extra = sorted(set(os.listdir(self.dir)) - set(self._expected))
            if extra:
                problems.append(f"files put into the shim folder: {', '.join(extra)}")
                for name in extra:
                    p = self.dir / name
                    shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
        if self.channel is not None:
            problem = self.channel.check()
            if problem:
                problems.append(problem)
        return problems

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
        if self._watch is not None:
            self._watch.close()


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


class AuditChannel:
    """A FIFO the engine holds open (read and write, so it never blocks or sees end-of-file),
    write-only (mode 0222) to everyone else. Records are read as they arrive (:meth:`pump`) so a
    busy command never fills the pipe."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._buffer = bytearray()
        self._fd = -1
        self._ident: tuple[int, int] = (0, 0)
        self._open()

    def _open(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            if self.path.is_dir() and not self.path.is_symlink():
                shutil.rmtree(self.path)
            else:
                self.path.unlink()
        os.mkfifo(self.path, 0o600)
        self._fd = os.open(self.path, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        os.chmod(self.path, 0o222)
        st = os.fstat(self._fd)
        self._ident = (st.st_dev, st.st_ino)

    @property
    def fd(self) -> int:
        return self._fd

    def check(self) -> str | None:
        """What happened to the FIFO (removed, replaced, its mode changed); a new one is put in place."""
        try:
            st = os.lstat(self.path)
        except OSError:
            problem = "the audit channel was removed"
        else:
            if (st.st_dev, st.st_ino) != self._ident:
                problem = "the audit channel was replaced"
            elif stat.S_IMODE(st.st_mode) != 0o222:
                problem = f"the audit channel's mode was changed to {stat.S_IMODE(st.st_mode):o}"
            else:
                return None
        self.pump()
        self.close()
        self._open()
        return problem

    def pump(self) -> None:
        """Read whatever is in the pipe now."""
        while self._fd >= 0:
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                return
            if not chunk:
                return
            self._buffer.extend(chunk)

    def records(self, *, final: bool = True) -> tuple[list[ShimRecord], list[str]]:
        """The complete records read so far (in the order their commands started) and what in the
        channel was not a record. ``final``: no wrapper is running any more, so bytes after the
        last record are junk too; else they stay for the next call (a record being written)."""
        self.pump()
        data = bytes(self._buffer)
        cut = data.rfind(END + b"\0")
        chunks = data[: max(cut, 0)].split(END + b"\0") if cut >= 0 else []
        rest = data[cut + len(END) + 1 :] if cut >= 0 else data
        self._buffer.clear()
        if final:
            if rest:
                chunks.append(rest)
        else:
            self._buffer.extend(rest)
        records: list[ShimRecord] = []
        junk: list[str] = []
        for chunk in chunks:
            start = chunk.find(MAGIC + b"\0")
            if start != 0:
                junk.append(chunk[: start if start > 0 else 80][:80].decode("utf-8", "replace"))
                if start < 0:
                    continue
                chunk = chunk[start:]
            record = parse_record(chunk)
            if record is None:
                junk.append(chunk[:80].decode("utf-8", "replace"))
            else:
                records.append(record)
        records.sort(key=lambda r: r.started)
        problems = [f"malformed audit record written to the channel: {j!r}" for j in junk]
        return records, problems

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def parse_record(data: bytes) -> ShimRecord | None:
    """One record (without its end mark), or None when it is not one."""
    fields = data.split(b"\0")
    # MAGIC, actor, cwd, t0, t1, rc, name, argv..., "" (the separator before the end mark)
    if len(fields) < 8 or fields[0] != MAGIC or fields[-1] != b"":
        return None
    actor, cwd, t0, t1, rc, *argv = (f.decode("utf-8", "replace") for f in fields[1:-1])
    try:
        started = float(t0.replace(",", "."))
        if t1 == rc == "":  # written before the program ran (a traced wrapper's)
            return ShimRecord(actor, cwd, tuple(argv), -1, started, 0.0, ended=False)
        ended = float(t1.replace(",", "."))
        exit_code = int(rc)
    except ValueError:
        return None
    return ShimRecord(actor, cwd, tuple(argv), exit_code, started, round((ended - started) * 1000, 3))


def install_shim(base: Path, commands: Iterable[str], search_path: str) -> tuple[Shim, Mapping[str, str | None]]:
    """A non-covering shim in ``base`` (for tests and tools); returns it and command -> real program."""
    shim = Shim(base, commands, search_path, covering=False)
    shim.install()
    return shim, dict(shim.real)
