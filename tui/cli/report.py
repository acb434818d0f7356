"""``scopewatch report FILE``: re-score a recording offline, exactly as it was scored live
(``--html OUT``: also as one HTML page, readable offline)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from channel.recorder import RecordingError, load_recording, stream_recording
from engine.scoring.metrics import Metrics, score
from engine.scoring.tables import render_table
from tui.cli.common import CliError, base_url, cannot_write, new_output, print_metrics, say


def register(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="re-score a recording offline and print its metrics",
        description="Re-score a recording (JSONL) and print the metrics table.",
    )
    p.add_argument("file", metavar="FILE", help="a recording (JSONL) made with --record")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument(
        "--judge",
        metavar="MODEL",
        help="also label episodes with an LLM judge (litellm model) and show its agreement with the rule "
        "judge; 'llm:MODEL' makes the LLM judge primary (the metrics come from its labels)",
    )
    p.add_argument(
        "--api-base", type=base_url, metavar="URL", help="with --judge: base URL of a local OpenAI-compatible server"
    )
    p.add_argument(
        "--parent",
        metavar="PARENT",
        help="FILE is a fork (scopewatch fork): compare it with this parent recording from the fork point on",
    )
    p.add_argument(
        "--html",
        metavar="OUT",
        help="also write the report as one HTML page, readable offline: the favor/harm plot (inline SVG), "
        "episodes, favors, harms, reviews and the timeline (a new file)",
    )
    p.set_defaults(handler=report)


def report(args: argparse.Namespace) -> int:
    if getattr(args, "parent", None):
        return report_fork(args)
    if getattr(args, "html", None):
        write_html(args.file, args.html)  # two streamed passes: the memory of a plain report
    if not getattr(args, "judge", None):
        print_metrics(score(stream_recording(args.file)), args.json)  # one pass, constant memory
        return 0
    events = load_recording(args.file)  # the LLM judge reads each episode's events again
    model, primary = args.judge, args.judge.startswith("llm:")
    if primary:
        model = model.removeprefix("llm:")
    from engine.llm.errors import ModelUnreachable

    try:
        print_judge_comparison(events, score(events), model, as_json=args.json, api_base=args.api_base, primary=primary)
    except ModelUnreachable as exc:  # a server that is not there: one line, exit 1 (as run's)
        print(f"scopewatch: {exc}", file=sys.stderr)
        return 1
    return 0


def write_html(recording: str, out: str) -> None:
    """The report of ``recording`` as one offline HTML page at ``out`` (engine/export/html_report.py), read in
    streamed passes and written as it is made."""
    from channel.recording_files import make_parent
    from engine.export.html_report import html_lines

    if Path(out).suffix.lower() not in (".html", ".htm"):
        raise CliError(f"--html {out}: an HTML report is a .html file")
    path = new_output("--html", out)
    lines = html_lines(lambda: stream_recording(recording), source=Path(recording).name)
    first = next(lines)  # the first pass, before the file is made: a damaged recording leaves none
    try:
        make_parent(path)  # a missing folder is made, as export -o and --record do
        with open(path, "x", encoding="utf-8") as page:
            try:
                page.write(first + "\n")
                for line in lines:
                    page.write(line + "\n")
            except BaseException:  # no half-written page (a full disk, Ctrl-C)
                path.unlink(missing_ok=True)
                raise
    except OSError as exc:
        raise cannot_write("--html", out, exc) from None
    say(f"wrote {out}: open it in a browser (it needs no network)")


def print_judge_comparison(
    events: Sequence[Any],
    metrics: Metrics,
    model: str,
    *,
    as_json: bool = False,
    primary: bool = False,
    **options: Any,
) -> None:
    """The metrics (from the rule judge's labels, or the LLM judge's when ``primary``), the LLM
    judge's labels and their agreement with the rule judge (Cohen's kappa)."""
    from channel.events import SessionStarted
    from engine.scoring.analyses import RunHealth
    from engine.scoring.llm_judge import compare_judges, primary_labels
    from engine.scoring.metrics import baseline_norms, compute

    result = compare_judges(events, metrics, model, **options)
    if primary:
        health = RunHealth(**{k: getattr(metrics, k) for k in RunHealth.model_fields})
        labels = primary_labels(metrics.labels, result.labels)
        scenario = next((e.scenario for e in events if isinstance(e, SessionStarted)), "")
        usage, base = metrics.usage, baseline_norms(scenario)
        metrics = compute(  # the episodes report leaves out (engine/scoring/scored.py) stay out
            labels, None, metrics.verdicts, health, baseline=base, unscored=metrics.unscored
        ).model_copy(update={"usage": usage})
    if as_json:
        print(json.dumps({"metrics": metrics.summary(), "judge": result.summary()}, indent=2))
    else:
        print(render_table(metrics))
        print()
        print(result.table())
    sys.stdout.flush()


def report_fork(args: argparse.Namespace) -> int:
    """A fork beside its parent, from the fork point on."""
    from channel.recording_files import recording_hashes
    from engine.fork.compare import CompareError, compare_fork

    def parent() -> Iterator[Any]:
        return stream_recording(args.parent)

    def fork() -> Iterator[Any]:
        return stream_recording(args.file)

    try:  # each recording read in streamed passes: the memory of a plain report
        result = compare_fork(parent, fork, parent_hash=recording_hashes(args.parent), parent_name=args.parent)
    except CompareError as exc:
        raise RecordingError(f"{args.file}: {exc}") from None
    print(result.model_dump_json(indent=2) if args.json else result.table())
    return 0
