"""The shell shim: a folder put first on ``PATH`` holding one small bash wrapper per sensitive
command. Each wrapper runs the real program (resolved once, when the shim is installed, on the
``PATH`` without the shim) and then writes one record file per invocation into the sandbox's log
folder (baked into the wrapper, so a command cannot unset it): actor (``$SCOPEWATCH_ACTOR``), cwd,
start and end time, exit code, argv, NUL-separated so that any argument survives. The sandbox
reads and removes the records after each shell command and turns them into ``ShellCommandRan``
events.

The wrappers are written once per process into a shared folder (creating files is the slow part
of starting a sandbox); each sandbox links it as ``<base>/shim`` and keeps its records in
``<base>/shimlog``, which a wrapper finds from the path it was invoked through (``$0``), so a
command cannot redirect or unset it.

The wrapper forks nothing of its own (bash's ``$EPOCHREALTIME`` gives the clock), so a shimmed
command costs one bash start more than the bare program. A command not installed here is still
recorded (exit code 127): the attempt is the fact that matters.
"""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_WRAPPER = """#!{bash}
# scopewatch shim for `{name}`: run the real program, then record the call.
__sw_t0=$EPOCHREALTIME
{run}
__sw_rc=$?
__sw_t1=$EPOCHREALTIME
# invoked as <base>/shim/{name}: the records go to <base>/shimlog
printf '%s\\0' "${{SCOPEWATCH_ACTOR:-}}" "$PWD" "$__sw_t0" "$__sw_t1" "$__sw_rc" {qname} "$@" \\
  > "${{0%/*/*}}/shimlog/${{__sw_t0/[.,]/}}.$$.rec" 2>/dev/null
exit $__sw_rc
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


LOG_DIR = "shimlog"
"""The records folder, a sibling of the folder a wrapper is invoked through."""


def install_shim(shim_dir: Path, commands: Iterable[str], search_path: str) -> dict[str, str | None]:
    """Write one wrapper per command into ``shim_dir``; returns command -> real program (None when
    it is not installed). Records go to ``shimlog`` next to the folder the wrapper is run from.
    ``search_path`` is the PATH the real programs are looked up on; it must not contain ``shim_dir``."""
    bash = shutil.which("bash", path=search_path) or shutil.which("bash")
    if bash is None:
        raise ShimUnavailable("the shell shim needs bash")
    shim_dir.mkdir(parents=True, exist_ok=True)
    real: dict[str, str | None] = {}
    for name in commands:
        program = shutil.which(name, path=search_path)
        real[name] = program
        if program is not None:
            run = f'{shlex.quote(program)} "$@"'
        else:
            run = f"echo {shlex.quote(name + ': command not found')} >&2; (exit 127)"
        wrapper = shim_dir / name
        wrapper.write_text(_WRAPPER.format(bash=bash, name=name, qname=shlex.quote(name), run=run))
        wrapper.chmod(0o755)
    return real


_shared: dict[tuple[tuple[str, ...], str], Path] = {}


def _shared_dir(commands: tuple[str, ...], search_path: str) -> Path:
    key = (commands, search_path)
    folder = _shared.get(key)
    # Rebuilt if anything removed a wrapper (an overeager cleanup reaching outside its workspace).
    if folder is None or not all((folder / name).is_file() for name in commands):
        folder = Path(tempfile.mkdtemp(prefix="scopewatch-shim-"))
        atexit.register(shutil.rmtree, folder, True)
        install_shim(folder, commands, search_path)
        _shared[key] = folder
    return folder


def link_shim(base: Path, commands: Iterable[str], search_path: str) -> tuple[Path, Path]:
    """Give the sandbox folder ``base`` its shim: ``base/shim`` (a link to the process's shared
    wrappers, checked and relinked on every call) and ``base/shimlog``. Returns both paths."""
    shim, log = base / "shim", base / LOG_DIR
    target = _shared_dir(tuple(sorted(commands)), search_path)
    if not shim.is_symlink() or Path(os.readlink(shim)) != target:
        if shim.is_symlink() or shim.exists():
            shim.unlink()
        shim.symlink_to(target, target_is_directory=True)
    log.mkdir(exist_ok=True)
    return shim, log


def _parse(data: bytes) -> ShimRecord | None:
    fields = data.split(b"\0")
    # actor, cwd, t0, t1, rc, argv..., "" (the trailing separator)
    if len(fields) < 7 or fields[-1] != b"":
        return None
    actor, cwd, t0, t1, rc, *argv = (f.decode("utf-8", "replace") for f in fields[:-1])
    try:
        started = float(t0.replace(",", "."))
        ended = float(t1.replace(",", "."))
        exit_code = int(rc)
    except ValueError:
        return None
    return ShimRecord(actor, cwd, tuple(argv), exit_code, started, round((ended - started) * 1000, 3))


def collect_records(log_dir: Path) -> list[ShimRecord]:
    """Read and remove every record in ``log_dir``, in the order the commands started. Records cut
    short (a wrapper killed while writing) are dropped."""
    records: list[ShimRecord] = []
    try:
        entries = list(os.scandir(log_dir))
    except FileNotFoundError:
        return records
    for entry in entries:
        try:
            data = Path(entry.path).read_bytes()
            os.unlink(entry.path)
        except OSError:
            continue
        record = _parse(data)
        if record is not None:
            records.append(record)
    records.sort(key=lambda r: r.started)
    return records
