"""``scopewatch compare A.jsonl B.jsonl``: two recordings' metrics side by side, with differences,
Wilson intervals and Fisher's exact test per rate (for a norm against Default)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from channel.events import DomainEntered, Event, SessionStarted
from channel.recorder import stream_recording
from channel.recording_files import recording_hashes
from channel.seat_events import Forked
from engine.scoring.compare import compare, render_comparison
from engine.scoring.metrics import Metrics, score


def register(sub: Any) -> None:
    p = sub.add_parser(
        "compare",
        help="compare two recordings' rates: differences, 95%% intervals, Fisher's exact p",
        description=(
            "Re-score two recordings and compare their rates (favor, harm, pass, ...): B - A, Wilson 95% "
            "intervals and Fisher's exact two-sided p-value (fisher_p). Typically A is Default, B a norm."
        ),
    )
    p.add_argument("a", metavar="A.jsonl", help="the baseline recording (e.g. Default)")
    p.add_argument("b", metavar="B.jsonl", help="the recording compared against it")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(handler=run_compare)


class _Side(NamedTuple):
    """One recording as ``compare`` reads it."""

    metrics: Metrics
    scenario: str
    condition: str
    forked: Forked | None
    packs: dict[str, str]
    """Each pack it ran (``SessionStarted``, ``DomainEntered``) -> its hash ("": recorded before packs were hashed)."""


def _metrics(path: str) -> _Side:
    """A recording's metrics, its scenario and its condition (from its first ``SessionStarted``), its ``Forked`` event
    when it is a fork (its first event), and the hash of each pack it ran."""
    start: SessionStarted | None = None
    forked: Forked | None = None
    packs: dict[str, str] = {}

    def events() -> Iterator[Event]:
        nonlocal start, forked
        for i, event in enumerate(stream_recording(path)):
            if i == 0 and isinstance(event, Forked):
                forked = event
            if start is None and isinstance(event, SessionStarted):
                start = event
            if isinstance(event, SessionStarted | DomainEntered):
                packs.setdefault(event.scenario, event.pack_hash)
            yield event

    metrics = score(events())
    return _Side(metrics, start.scenario if start else "", start.condition if start else "", forked, packs)


def _fork(a: str, b: str, a_forked: Forked | None, b_forked: Forked | None) -> str:
    """One line when one recording is a fork of the other (its first event, ``Forked``, names the other's hash)."""
    for child, parent, first, (c, p) in ((b, a, b_forked, ("B", "A")), (a, b, a_forked, ("A", "B"))):
        if first is not None and first.parent in recording_hashes(parent):
            return (
                f"{c} is a fork of {p} after its event {first.at}: the episodes before that are {p}'s own, counted on "
                f"both sides as if independent (`report {Path(child).name} --parent {Path(parent).name}` compares the "
                "diverging episodes pairwise)"
            )
    return ""


def run_compare(args: argparse.Namespace) -> int:
    a, b = _metrics(args.a), _metrics(args.b)
    result = compare(
        a.metrics, b.metrics, a_name=Path(args.a).name, b_name=Path(args.b).name, a_scenario=a.scenario,
        b_scenario=b.scenario, a_condition=a.condition, b_condition=b.condition,
        fork=_fork(args.a, args.b, a.forked, b.forked), a_packs=a.packs, b_packs=b.packs,
    )  # fmt: skip
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), sort_keys=True))
    else:
        print(render_comparison(result))
    return 0
