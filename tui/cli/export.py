"""``scopewatch export RECORDING --format inspect -o run.eval``: a run in another tool's format."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tui.cli.common import CliError, cannot_write, new_output, say


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="write a recording in another tool's format (an Inspect AI log)",
        description="Write a recording as an Inspect AI log: one sample per scored episode, with its scores.",
    )
    p.add_argument("file", metavar="RECORDING", help="a recording (JSONL) made with --record")
    p.add_argument("--format", choices=["inspect"], default="inspect", help="the format to write")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write it (.eval or .json)")
    p.set_defaults(handler=export)


def export(args: argparse.Namespace) -> int:
    from channel.recorder import stream_recording
    from channel.recording_files import make_parent
    from engine.export.inspect_log import write_inspect_log

    if Path(args.output).suffix not in (".eval", ".json"):
        raise CliError(f"-o {args.output}: an Inspect log is a .eval or .json file")
    out = new_output("-o", args.output)
    try:
        make_parent(out)  # before the recording is read: a place it cannot write is said at once
        samples, note = write_inspect_log(stream_recording(args.file), out, source=args.file)  # one pass
    except OSError as exc:
        raise cannot_write("-o", args.output, exc) from None
    if note:
        say(note)
    say(f"wrote {out}: {samples} samples (one per scored episode); open it with 'inspect view'")
    return 0
