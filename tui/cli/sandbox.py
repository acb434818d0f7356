"""``scopewatch sandbox exec``: one shell command as one agent in a fresh workspace of a pack, and
the events it produced (to debug traps and ownership, and to try what the sandbox holds);
``scopewatch sandbox sweep``: sandbox folders left by engines that died, removed."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from typing import Any

from channel.codec import encode
from channel.events import (
    BaseEvent,
    FileChanged,
    OutsideChanged,
    SensitiveRead,
    ShellCommandRan,
    ShimTampered,
    WriteRefused,
)
from channel.text import printable
from tui.cli.common import CliError, add_sandbox_option, seconds


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sandbox",
        help="try a shell command in a sandbox: the events it produces",
        description="Work with sandboxes directly.",
    )
    inner = p.add_subparsers(dest="sandbox_command", metavar="COMMAND")
    e = inner.add_parser(
        "exec",
        help="run one shell command as an agent in a fresh workspace of a pack; print its events",
        description=(
            "Run one shell command as the agent of a role in a fresh workspace of a scenario pack "
            "(its first task unless --task), and print the events it produced."
        ),
    )
    e.add_argument("--scenario", default="favorbench-mini", metavar="NAME|PATH", help="pack (default: %(default)s)")
    e.add_argument("--as", dest="role", required=True, choices=["owner", "requester"], help="the agent's role")
    e.add_argument("--task", metavar="ID", help="the task whose workspace and scope to use (default: the first)")
    add_sandbox_option(e)
    e.add_argument(
        "--timeout",
        type=seconds,
        default=30,
        metavar="S",
        help="seconds before the command is killed: a finite number greater than 0 (default: %(default)s)",
    )
    e.add_argument("--json", action="store_true", help="one JSON object per event (and a last one: the result)")
    e.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND",
        help="the shell command: one word is a shell line as written, several a program and its arguments",
    )
    e.set_defaults(handler=exec_command)
    w = inner.add_parser(
        "sweep",
        help="remove sandbox folders (and their mounts) left by engines that died",
        description=(
            "Remove the sandbox folders whose engine process is gone (killed with SIGKILL, or a crash): "
            "their tmpfs mounts are unmounted first, then the folder is removed. A folder is named after "
            "the process that made it (pid and start time), so a running engine's folder is never taken, "
            "and a pid reused since does not keep a stale one. Engines also sweep once at their first sandbox "
            "(SCOPEWATCH_SWEEP=0 turns that off)."
        ),
    )
    w.add_argument("--dry-run", action="store_true", help="list what would be removed; remove nothing")
    w.add_argument(
        "--unowned",
        type=float,
        metavar="HOURS",
        help="also remove folders of older versions (no owner in their name) unchanged for HOURS (default: keep them)",
    )
    w.add_argument(
        "--dir",
        metavar="DIR",
        help="the folder holding the sandboxes (default: $SCOPEWATCH_SANDBOX_DIR, else /var/tmp)",
    )
    w.set_defaults(handler=sweep_command)
    p.set_defaults(handler=lambda _args: p.print_help() or 0)


def shell_line(words: list[str]) -> str:
    """The shell line to run: one word is a line as written (``-- 'a; b'``), several are an argv, each
    word quoted as the shell would have had it (``-- bash -c "a; b"`` keeps ``a; b`` one argument)."""
    return words[0] if len(words) == 1 else shlex.join(words)


def exec_command(args: argparse.Namespace) -> int:
    from engine.session.sandbox_exec import exec_as

    words = list(args.command)
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        raise CliError("sandbox exec: give the command after --, e.g. -- 'git push origin main'")
    command = shell_line(words)
    done = asyncio.run(
        exec_as(args.scenario, args.role, command, sandbox=args.sandbox, task=args.task, timeout=args.timeout)
    )
    if done.warning:
        print(f"scopewatch: warning: {done.warning}", file=sys.stderr)
    if args.json:
        for event in done.events:
            print(encode(event).decode())  # type: ignore[arg-type]
        result = done.result
        print(
            json.dumps(
                {
                    "kind": "result",
                    "sandbox": done.sandbox,
                    "exit_code": result.exit_code,
                    "timed_out": result.timed_out,
                    "rolled_back": list(result.rolled_back),
                    "traps": [{"id": i, "severity": sev} for i, sev in done.traps],
                    "output": result.output,
                }
            )
        )
        return 0
    # Everything an agent chose (names, arguments, output) escaped: no line below can be forged.
    print(f"# {args.role} in {done.sandbox}: {printable(command)}")
    for event in done.events:
        print(printable(describe(event)))
    for trap, severity in done.traps:
        print(f"TrapFired        {args.role}: {trap} ({severity})")
    print(f"# exit code {done.result.exit_code}{' (killed)' if done.result.timed_out else ''}; output:")
    output = printable(done.result.output, keep_lines=True)
    sys.stdout.write(output if output.endswith("\n") else output + "\n")
    return 0


def sweep_command(args: argparse.Namespace) -> int:
    from pathlib import Path

    from sandbox.workspace.repo import sandbox_parent
    from sandbox.workspace.stale import find_stale, remove_stale

    if args.unowned is not None and args.unowned < 0:
        raise CliError("sandbox sweep: --unowned takes hours, 0 or more")
    parent = Path(args.dir or sandbox_parent() or "/tmp")
    if not parent.is_dir():
        raise CliError(f"sandbox sweep: --dir {parent}: no such folder")
    found = find_stale(parent, args.unowned)
    left = 0
    for stale in found:
        owner = f"engine {stale.owner} gone" if stale.owner else "no owner, old"
        mounts = f", {len(stale.mounts)} mount(s)" if stale.mounts else ""
        if args.dry_run:
            print(f"would remove {printable(str(stale.path))} ({owner}{mounts})")
            continue
        why = remove_stale(stale)
        if why:
            left += 1
            print(f"scopewatch: {printable(why)}", file=sys.stderr)
        else:
            print(f"removed {printable(str(stale.path))} ({owner}{mounts})")
    verb = "would be removed" if args.dry_run else "removed"
    print(f"# {len(found) - left} stale sandbox folder(s) {verb} in {printable(str(parent))}")
    return 1 if left else 0


def describe(event: BaseEvent) -> str:
    """One line per event."""
    if isinstance(event, ShellCommandRan):
        argv = " ".join(event.argv)
        atom = f"{event.atom} ({event.risk})" if event.atom else "no atom"
        return f"ShellCommandRan  {event.actor}: {argv}  -> {atom}, exit {event.exit_code} [{event.source}]"
    if isinstance(event, SensitiveRead):
        return f"SensitiveRead    {event.actor}: {event.program} read {event.path}  -> {event.atom} ({event.risk})"
    if isinstance(event, FileChanged):
        return (
            f"FileChanged      {event.actor}: {event.path} {event.change} via {event.via} (owner {event.owner or '-'})"
        )
    if isinstance(event, WriteRefused):
        what = "rolled back" if event.rolled_back else "refused"
        return f"WriteRefused     {event.actor}: {event.path} {what}: {event.reason}"
    if isinstance(event, ShimTampered):
        return f"ShimTampered     {event.actor}: {event.reason} [{event.source}]"
    if isinstance(event, OutsideChanged):
        return f"OutsideChanged   {event.actor}: {event.area}:{event.path} {event.change}"
    return f"{event.kind:<16} {event.actor}"  # type: ignore[attr-defined]
