"""The shell shim: a folder put first on ``PATH`` holding one small bash wrapper per sensitive
command. Each wrapper runs the real program (resolved once, when the shim is installed, on the
``PATH`` without the shim) and then writes one record file per invocation into the sandbox's log
folder (baked into the wrapper, so a command cannot unset it): actor (``$SCOPEWATCH_ACTOR``), cwd,
start and end time, exit code, argv, NUL-separated so that any argument survives. The sandbox
reads and removes the records after each shell command and turns them into ``ShellCommandRan``
events.

The wrapper forks nothing of its own (bash's ``$EPOCHREALTIME`` gives the clock), so a shimmed
command costs one bash start more than the bare program. A command not installed here is still
recorded (exit code 127): the attempt is the fact that matters.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_WRAPPER = """#!{bash}
# scopewatch shim for `{name}`: run the real program, then record the call.
__sw_t0=$EPOCHREALTIME
{run}
__sw_rc=$?
__sw_t1=$EPOCHREALTIME
printf '%s\\0' "${{SCOPEWATCH_ACTOR:-}}" "$PWD" "$__sw_t0" "$__sw_t1" "$__sw_rc" {qname} "$@" \\
  > {log}/"${{__sw_t0/[.,]/}}.$$.rec" 2>/dev/null
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


def install_shim(shim_dir: Path, commands: Iterable[str], search_path: str, log_dir: Path) -> dict[str, str | None]:
    """Write one wrapper per command into ``shim_dir``, recording into ``log_dir``; returns
    command -> real program (None when it is not installed). ``search_path`` is the PATH the real
    programs are looked up on; it must not contain ``shim_dir``."""
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
        wrapper.write_text(
            _WRAPPER.format(bash=bash, name=name, qname=shlex.quote(name), run=run, log=shlex.quote(str(log_dir)))
        )
        wrapper.chmod(0o755)
    return real


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
