"""``scopewatch report FILE``: re-score a recording offline, exactly as it was scored live."""

from __future__ import annotations

import argparse

from channel.recorder import load_recording
from engine.headless import print_metrics
from engine.metrics import score


def report(args: argparse.Namespace) -> int:
    events = load_recording(args.file)
    metrics = score(events)
    if getattr(args, "judge", None):
        from engine.llm_judge import compare_judges

        compare_judges(events, metrics, args.judge, as_json=args.json)
        return 0
    print_metrics(metrics, args.json)
    return 0
