"""Which traced execs are the shim's wrappers, and which program a wrapper hides behind its record
(:mod:`sandbox.commands.tracer` reports the record, not the wrapper and its program).

A wrapper is known by its path (the shim's folder, a program it is mounted over) or by its bytes (a
copy of one under another name: :meth:`~sandbox.commands.identity.ProgramIndex.wrapper`), or as a
script's interpreter (the kernel runs the wrapper in the script's own exec); the program
behind it must be its command, run with the wrapper's own arguments (what its record will say). Each
record takes one wrapper exec with its command and arguments (:func:`match_records`); the rest are forged.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from sandbox.commands.identity import Program, ProgramIndex, by_descriptor
from sandbox.commands.shim import ShimRecord
from sandbox.commands.strace import Exec, ParsedTrace

SHELLS = ("bash", "sh", "lksh", "mksh")
"""Shells a wrapper may be run by as a script (``lksh WRAPPER``: the wrappers' own shell where it serves,
:func:`~sandbox.jail.sysfiles.quick_sh`)."""


def as_wrapper(e: Exec, wrappers: Mapping[str, str], index: ProgramIndex) -> tuple[str, tuple[str, ...]] | None:
    """(command, arguments) when ``e`` runs a shim wrapper (directly, or as ``bash WRAPPER ...``: :data:`SHELLS`),
    by its path or by its bytes (a copy of a wrapper under another name). A descriptor or a process's
    image (``/proc/self/exe``) is never one: it is a binary the kernel mapped, and a wrapper is a script."""
    if by_descriptor(e.file):
        return None
    for file in (e.file, real_path(e.file)):
        if file in wrappers:
            return wrappers[file], e.argv[1:]
    if Path(e.file).name in SHELLS and len(e.argv) > 1:
        for file in (e.argv[1], real_path(e.argv[1])):
            if file in wrappers:
                return wrappers[file], e.argv[2:]
        command = index.wrapper(e.argv[1], e.cwd)
        return None if command is None else (command, e.argv[2:])
    command = index.wrapper(e.file, e.cwd)
    return (command, e.argv[1:]) if command is not None else _by_interpreter(e, wrappers, index)


def _by_interpreter(e: Exec, wrappers: Mapping[str, str], index: ProgramIndex) -> tuple[str, tuple[str, ...]] | None:
    """(command, arguments) when ``e`` runs a script whose interpreter line names a wrapper (a venv's
    ``pip`` begins ``#!/venv/bin/python3``, a script ``#!/usr/bin/env python3``, and the shim covers
    both): the kernel runs that wrapper with the line's argument, the script's path as it was run and
    the script's arguments, in the same exec, so the trace shows the script and the wrapper's record
    names the interpreter. The line is read after the command; a script rewritten since can at most
    claim a wrapper whose record, with exactly those arguments, a real wrapper exec must still match."""
    line = index.shebang(e.file, e.cwd)
    if line is None:
        return None
    interpreter, argument = line
    command = next((wrappers[f] for f in (interpreter, real_path(interpreter)) if f in wrappers), None)
    command = command or index.wrapper(interpreter)
    if command is None:
        return None
    return command, (*((argument,) if argument else ()), e.file, *e.argv[1:])


def real_path(path: str) -> str:
    """An absolute path with its symlinks resolved (``/bin/rm`` is ``/usr/bin/rm`` where /bin is a
    link; the jail's system folders are the host's). Not under ``/proc``: its ``self`` and its pids
    are the jail's processes, and the engine resolving them would read its own."""
    return os.path.realpath(path) if path.startswith("/") and not path.startswith("/proc/") else path


def runs_behind(e: Exec, program: Program, wrapper: tuple[str, tuple[str, ...], Exec]) -> bool:
    """Whether ``e`` (``program``) is the real program a wrapper runs: the wrapper's command, by name
    or identity, with the wrapper's own arguments (what its record will say). Anything else its
    process runs is reported on its own: a script that only looks like a wrapper hides nothing."""
    name, args, _ = wrapper
    return (Path(e.file).name == name or program.name == name) and e.argv[1:] == args


def as_program(wrapper: tuple[str, tuple[str, ...], Exec]) -> Program:
    name, args, _ = wrapper
    return Program(name, (name, *args), name, known=True)


@dataclass(frozen=True)
class Wrapped:
    """A shim record the trace confirms: the pid of the program it ran (of the wrapper that wrote it
    when no program ran), and the parent of that wrapper."""

    record: ShimRecord
    pid: int
    parent_pid: int


def match_records(
    records: Sequence[ShimRecord],
    wrappers: Mapping[int, tuple[str, tuple[str, ...], Exec]],
    real: Mapping[int, int],
    trace: ParsedTrace,
) -> tuple[tuple[Wrapped, ...], tuple[ShimRecord, ...], tuple[int, ...]]:
    """Each record takes one wrapper exec with the same command and arguments; the rest are forged.
    ``wrappers`` and ``real`` are keyed by wrapper (a key per wrapper exec): a confirmed record is the real
    program's process (what it starts names it as parent). A record written before its program ran (a traced
    sandbox's wrapper, which became the program) is completed from the trace: the exit of that process, and
    its end. Also the keys of the wrappers no record took (a wrapper killed before it wrote)."""
    free = sorted(wrappers.items(), key=lambda item: item[1][2].ts)
    used: set[int] = set()
    matched: list[Wrapped] = []
    forged: list[ShimRecord] = []
    for record in records:
        hit = next(
            (
                key
                for key, (name, args, _) in free
                if key not in used and name == record.argv[0] and args == record.argv[1:]
            ),
            None,
        )
        if hit is None:
            forged.append(record)
        else:
            used.add(hit)
            pid = wrappers[hit][2].pid
            program = real.get(hit, pid)
            matched.append(Wrapped(_ended(record, trace, program), program, trace.parent.get(pid, 0)))
    silent = tuple(key for key, _ in free if key not in used)
    return tuple(matched), tuple(forged), silent


def _ended(record: ShimRecord, trace: ParsedTrace, pid: int) -> ShimRecord:
    """``record`` with how process ``pid`` ended, when the record could not say (it was written first); as it is
    when the trace does not show that end either (exit code -1)."""
    if record.ended or pid not in trace.exits:
        return record
    when, code = trace.exits[pid]
    return replace(record, exit_code=code, duration_ms=round(max(when - record.started, 0.0) * 1000, 3), ended=True)
