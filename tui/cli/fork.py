"""``scopewatch fork RECORDING --at SEQ``: the session as it stood after event SEQ, continued live
with changed norms or seats, on the TUI or ``--headless``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path
from typing import Any

from channel.vocab.norms import norms_help
from engine.fork.course import changes_text
from engine.fork.errors import ForkDiverged
from engine.fork.plan import ForkPlan, plan_fork
from tui.cli.common import THEME_HELP, CliError, base_url, print_metrics, say, warn_red_contracts
from tui.cli.live import open_live
from tui.cli.run import DEMO_PACE, Progress


def register(sub: Any) -> None:
    p = sub.add_parser(
        "fork",
        help="continue a recording from any event with changed norms or agents",
        description=(
            "Run a recorded session again up to event SEQ (checking it does the same), then continue "
            "live with the changes, applied at the next round boundary. Scripted agents only before SEQ."
        ),
    )
    p.add_argument("file", metavar="RECORDING", help="a recording (JSONL) made with --record")
    p.add_argument("--at", type=int, required=True, metavar="SEQ", help="fork after this event (its seq)")
    p.add_argument(
        "--norm",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"a norm in force from the fork point, repeatable (e.g. admin_only=true). Norms, values: {norms_help()}",
    )
    p.add_argument(
        "--agents",
        metavar="KIND",
        help="from the fork point, this agent in every seat: scripted, human, a litellm model string",
    )
    p.add_argument("--requester", metavar="KIND", help="from the fork point, the requester's agent (e.g. human)")
    p.add_argument("--owner", metavar="KIND", help="from the fork point, the owner's agent (e.g. human)")
    p.add_argument(
        "--api-base", type=base_url, metavar="URL", help="base URL for a local OpenAI-compatible server / Ollama"
    )
    p.add_argument("--headless", action="store_true", help="no screen: print the fork's metrics when done")
    p.add_argument("--json", action="store_true", help="with --headless: one JSON object on stdout")
    p.add_argument("--record", metavar="OUT", help="write the fork's events to this JSONL recording (a new file)")
    p.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    p.set_defaults(handler=fork)


def seats(args: argparse.Namespace) -> dict[str, str]:
    """The seats ``--requester`` / ``--owner`` give another agent (they override ``--agents``, which
    names every seat of the recording, whatever its episode kind: ``plan_fork``'s ``every``)."""
    return {role: kind for role in ("requester", "owner") if (kind := getattr(args, role, None))}


def norm_assignments(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise CliError(f"--norm {item!r}: expected KEY=VALUE, e.g. admin_only=true")
        out[key.strip().replace("-", "_")] = value
    return out


def fork(args: argparse.Namespace) -> int:
    """The ``fork`` subcommand."""
    from engine.runs.runner import check_agents

    plan = plan_fork(
        args.file,
        args.at,
        norms=norm_assignments(args.norm),
        agents=seats(args),
        every=getattr(args, "agents", None),
        headless=args.headless,
    )
    if args.api_base:
        plan.config = plan.config.model_copy(update={"api_base": args.api_base})
    check_agents(plan.config.model_copy(update=plan.agents))
    warn_red_contracts(plan.config.scenario)
    say(f"fork of {args.file} after seq {args.at}: {changes_text(plan.norms, plan.agents)}")
    if args.headless:
        return fork_headless(plan, args.record, as_json=args.json)
    return open_fork(plan, theme=args.theme, record=args.record)


def open_fork(plan: ForkPlan, *, theme: str | None, record: str | None) -> int:
    """The fork on the live TUI (a person in a seat given to ``human``)."""
    seat = next((agent for agent, kind in plan.agents.items() if kind == "human"), None)
    scripted = all(k.startswith("scripted") for k in plan.agents.values())
    config = plan.config.model_copy(update={"pace": DEMO_PACE if scripted and seat is None else 0.0})
    return open_live(config, theme=theme, record=record, fork=plan, seat=seat)


def fork_recording_path(parent: str, at: int) -> str:
    """Where a fork made from the replay is recorded: beside its parent, never over another file."""
    base = Path(parent)
    for n in range(1, 1000):
        path = base.with_name(f"{base.stem}.fork-{at}{'' if n == 1 else f'-{n}'}.jsonl")
        if not path.exists():
            return str(path)
    raise CliError(f"{parent}: too many forks at seq {at} beside it")


def fork_headless(plan: ForkPlan, record: str | None, *, as_json: bool) -> int:
    """Run the fork without a screen: progress on stderr, the fork's metrics on stdout."""
    from engine.runs.runner import episode_count, run_session

    progress = Progress()
    try:
        with progress.warnings():  # a warning (a recording the disk could not take) on a line of its own
            metrics = asyncio.run(
                run_session(
                    plan.config,
                    record=record,
                    fork=plan,
                    on_start=lambda session: progress.start(episode_count(session)),
                    on_event=progress.show,
                )
            )
    except ForkDiverged:
        progress.end_line()
        if record:  # a recording of a fork that did not happen: not kept
            with contextlib.suppress(OSError):
                Path(record).unlink()
        raise
    print_metrics(metrics, as_json)
    if record:
        print(f"scopewatch: compare with: scopewatch report {record} --parent {plan.parent_path}", file=sys.stderr)
    return 0
