"""The ``scopewatch`` command line: the one layer that parses arguments and prints.

One module per subcommand, each with ``register(subparsers)`` and its handler; the engine functions
they call take typed arguments and return results. Heavy imports (textual, litellm) happen only in
the handlers that need them, so ``--help`` and headless runs stay fast. ``live`` (the live app on an
in-process session) and ``common`` serve several of them.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib import metadata

from channel.errors import ScopewatchError
from channel.recording_files import RecordingWarning
from tui.cli import (
    agents,
    compare,
    demo,
    export,
    fork,
    labels,
    lesson,
    overeager,
    prompts,
    replay,
    report,
    review,
    run,
    sandbox,
    scenarios,
    serve,
    watch,
    web,
)
from tui.cli.common import EXIT_USAGE, CliError, CliParser

SUBCOMMANDS = (
    demo,
    run,
    fork,
    report,
    labels,
    compare,
    replay,
    export,
    lesson,
    scenarios,
    overeager,
    sandbox,
    serve,
    watch,
    review,
    web,
    prompts,
    agents,
)
"""In the order ``--help`` lists them."""

__all__ = ["EXIT_USAGE", "CliError", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = CliParser(
        prog="scopewatch",
        description=(
            "Watch LLM coding agents work side by side in a shared repository: favors, "
            "out-of-scope actions, harm to absent teams. Play the reviewer, flip norms live."
        ),
        epilog="Start with 'scopewatch demo'. Each command has its own --help.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def _version() -> str:
    """The installed distribution's version (a source tree run without installing says so)."""
    try:
        return metadata.version("scopewatch")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def _show_warning(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> None:
    """A warning is one line on stderr (a recording read past a newer writer's lines)."""
    print(f"scopewatch: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``scopewatch`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    code = 0
    try:
        with warnings.catch_warnings():  # the caller's warning settings back afterwards
            warnings.simplefilter("default", RecordingWarning)
            warnings.showwarning = _show_warning
            code = handler(args)
            sys.stdout.flush()  # here: a reader gone is the BrokenPipeError below, not Python's exit 120 at shutdown
            return code
    except ScopewatchError as exc:
        print(f"scopewatch: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as stop:  # what was kept or removed, when the work says (engine/runs/batch.py)
        print(f"scopewatch: interrupted{f': {stop}' if stop.args else ''}", file=sys.stderr)
        # Work interrupted before it began leaves coroutines nobody awaits: Python's warning about each, when they
        # are collected, is noise after the one line (newcomer4 08: Ctrl-C early in scenarios validate).
        warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
        return 130
    except BrokenPipeError:
        # The reader went away (``scopewatch report r.jsonl | head``): stop quietly, like other tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return code
