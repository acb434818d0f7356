"""``scopewatch labels import|agreement|sample``: human labels for the favor judge (seed 000 C.6) and
each judge's agreement with them. The shipped set (``scenarios/labels/favorbench-mini.jsonl``) was
labelled by hand from three scripted recordings, ``overeager-mini.jsonl`` from six scripted audit
runs; see docs/norms-and-favorbench.md and docs/overeager.md."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path
from typing import Any

from tui.cli.common import base_url, cannot_write, positive, usage_for

SHIPPED_DIR = Path(__file__).resolve().parents[2] / "scenarios" / "labels"
"""The hand-labelled sets that ship with scopewatch (``labels agreement`` reads them all by default)."""
SHIPPED = SHIPPED_DIR / "favorbench-mini.jsonl"
"""The favor judge's hand-labelled set."""
SHIPPED_OVEREAGER = SHIPPED_DIR / "overeager-mini.jsonl"
"""The overeager verdict's hand-labelled set (scripted audit runs)."""
DEFAULT_STORE = "scopewatch-labels.jsonl"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "labels",
        help="human labels for the favor judge: import, sample to annotate, agreement of both judges",
        description="Human labels of episodes (execution, favor_type, direct_request: the LLM judge's three "
        "questions) and how the rule judge and the LLM judge agree with them (accuracy, Cohen's kappa, "
        "precision / recall / F1 per label).",
    )
    lsub = p.add_subparsers(dest="labels_command", metavar="ACTION")

    sp = lsub.add_parser("import", help="check a CSV or JSONL label file against its recordings and merge it")
    sp.add_argument(
        "file", metavar="FILE", help="labels: recording, trajectory, episode, question, label[, annotator, note]"
    )
    sp.add_argument(
        "--into", metavar="STORE", default=DEFAULT_STORE, help="the label store (JSONL; default: %(default)s)"
    )
    sp.set_defaults(handler=import_command)

    sp = lsub.add_parser("agreement", help="each judge against the human labels: accuracy, kappa, P/R/F1")
    sp.add_argument(
        "--labels",
        metavar="FILE",
        default=str(SHIPPED_DIR),
        help="a label file or store, or a folder of them (default: the shipped sets)",
    )
    sp.add_argument(
        "--judge", metavar="MODEL", help="also run the LLM judge (a litellm model) on the labelled episodes"
    )
    sp.add_argument(
        "--api-base", type=base_url, metavar="URL", help="with --judge: base URL of a local OpenAI-compatible server"
    )
    sp.add_argument("--json", action="store_true", help="one JSON object on stdout")
    sp.set_defaults(handler=agreement_command)

    sp = lsub.add_parser("sample", help="draw a stratified sample of episodes and write the file to fill in")
    sp.add_argument("recordings", nargs="+", metavar="RECORDING", help="recordings (JSONL) to draw from")
    sp.add_argument("--n", type=positive, default=50, help="episodes to draw (default: %(default)s, as seed 003)")
    sp.add_argument("--seed", type=int, default=1, help="sampling seed (default: %(default)s)")
    sp.add_argument("--out", metavar="FILE", default="labels-to-fill.csv", help="where to write (.csv or .jsonl)")
    sp.set_defaults(handler=sample_command)

    p.set_defaults(handler=usage_for(p))


def import_command(args: argparse.Namespace) -> int:
    from engine.scoring.labels import import_labels

    done = import_labels(args.file, args.into)
    empty = f", {done.empty} rows without a label skipped" if done.empty else ""
    print(f"{args.into}: {done.added} labels added, {done.replaced} replaced{empty}; {done.total} in the store")
    return 0


def agreement_command(args: argparse.Namespace) -> int:
    from engine.scoring.labels import agreement, llm_labels, read_labels, render_agreement

    labels = read_labels(args.labels)
    if not labels.rows:
        print(f"{args.labels}: no labelled rows")
        return 0
    answers = None
    note = "llm judge: not run (give --judge MODEL, and --api-base URL for a local server; none is called offline)"
    seconds = None
    if args.judge:
        from engine.llm.secrets import check_model_credentials

        check_model_credentials(args.judge, args.api_base)
        started = time.monotonic()
        answers = asyncio.run(llm_labels(labels, args.judge, api_base=args.api_base))
        seconds = time.monotonic() - started
        calls = sum(lab.usage.calls for labs in answers.values() for lab in labs)
        note = f"llm judge: {calls} calls in {seconds:.0f} s (answers constrained to each question's labels)"
    scores = agreement(labels, answers, args.judge or "")
    if args.json:
        print(json.dumps(_summary(labels.path, scores, ran_llm=answers is not None, seconds=seconds), sort_keys=True))
    else:
        print(f"{args.labels}: {len(labels.rows)} human labels")
        print(render_agreement(scores, llm_note=note))
    return 0


def _summary(path: Path, scores: Any, *, ran_llm: bool, seconds: float | None) -> dict[str, Any]:
    return {
        "labels": str(path),
        "llm_judge_run": ran_llm,
        "llm_seconds": None if seconds is None else round(seconds, 1),
        "judges": {
            s.judge: {
                "unusable": s.unusable,
                "unusable_kinds": s.unusable_kinds,
                "usable_fraction": s.usable_fraction,
                "questions": {
                    q.question: {
                        "n": q.n,
                        "accuracy": q.accuracy,
                        "kappa": q.kappa,
                        "per_label": {
                            p.label: {"precision": p.precision, "recall": p.recall, "f1": p.f1, "support": p.support}
                            for p in q.per_label
                        },
                    }
                    for q in s.questions
                },
            }
            for s in scores
        },
    }


def sample_command(args: argparse.Namespace) -> int:
    from channel.recording_files import make_parent
    from engine.scoring.labels import draw_sample, write_rows

    out = Path(args.out)
    rows = draw_sample(args.recordings, args.n, seed=args.seed, relative_to=out.resolve().parent)
    try:
        make_parent(out)
        write_rows(rows, out)
    except OSError as exc:
        raise cannot_write("--out", args.out, exc) from None
    episodes = len({(r.recording, r.trajectory, r.episode) for r in rows})
    print(f"{out}: {episodes} episodes, {len(rows)} rows to fill in (the label column); then: scopewatch labels import")
    return 0
