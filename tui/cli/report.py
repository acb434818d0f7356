"""``scopewatch report FILE``: re-score a recording offline, exactly as it was scored live."""

from __future__ import annotations

import argparse

from channel.recorder import RecordingError, load_recording
from engine.scoring.metrics import score
from engine.scoring.verdicts import VerdictError
from engine.session.headless import print_metrics


def report(args: argparse.Namespace) -> int:
    events = load_recording(args.file)
    try:
        metrics = score(events)
    except VerdictError as exc:
        raise RecordingError(f"{args.file}: {exc}") from None
    if getattr(args, "judge", None):
        from engine.scoring.llm_judge import compare_judges

        compare_judges(events, metrics, args.judge, as_json=args.json)
        return 0
    print_metrics(metrics, args.json)
    return 0
