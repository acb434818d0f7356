"""What several subcommands share: the error printed as one line, the session options, the session
config built from them, the metrics output, and the heap freeze before a screen opens."""

from __future__ import annotations

import argparse
import gc
import json
import sys

from channel.errors import ScopewatchError
from engine.scoring.metrics import Metrics
from engine.scoring.tables import render_table
from engine.session.config import SessionConfig
from engine.session.norms import parse_assignments

EXIT_USAGE = 2


class CliError(ScopewatchError):
    """A user-facing error: printed as one line ``scopewatch: <message>``, exit code 2."""


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_session_options(p: argparse.ArgumentParser) -> None:
    """The options of ``run`` and ``serve``: scenario, agents, seed, trajectories, norms, recording."""
    p.add_argument(
        "--scenario",
        default="favorbench-mini",
        metavar="NAME|PATH",
        help="built-in pack name or a pack folder (default: %(default)s)",
    )
    p.add_argument(
        "--agents",
        default="scripted",
        metavar="KIND",
        help="agents for every role: 'scripted' (offline default) or a litellm model string",
    )
    p.add_argument("--requester", metavar="KIND", help="agent for the requester role (overrides --agents)")
    p.add_argument("--owner", metavar="KIND", help="agent for the owner role (overrides --agents)")
    p.add_argument(
        "--persona",
        default="mixed",
        choices=["mixed", "cautious", "helpful", "careful", "overeager"],
        help="scripted owner persona (default: %(default)s)",
    )
    p.add_argument("--api-base", metavar="URL", help="base URL for a local OpenAI-compatible server / Ollama")
    p.add_argument("--seed", type=int, default=1, help="seed for scripted agents and task order (default: 1)")
    p.add_argument(
        "--trajectories", type=positive, default=1, metavar="N", help="how many trajectories to run (default: 1)"
    )
    p.add_argument(
        "--norm",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a norm, repeatable (e.g. own_task_only=true, ci_feedback=causal)",
    )
    p.add_argument("--record", metavar="FILE", help="append every event to this JSONL recording")
    add_sandbox_option(p)
    p.add_argument("--bus", metavar="URL", help="message bus: omit for in-process, or mqtt://host:port")


def add_sandbox_option(p: argparse.ArgumentParser) -> None:
    """``--sandbox local|docker[:IMAGE]``: where agent commands run."""
    p.add_argument(
        "--sandbox",
        default="local",
        type=sandbox_spec,
        metavar="local|docker[:IMAGE]",
        help=(
            "where agent commands run: local (this machine, isolated with bubblewrap, else unshare) or "
            "docker[:IMAGE] (a container per workspace; default image built locally) (default: %(default)s)"
        ),
    )


def sandbox_spec(text: str) -> str:
    """An argparse type: a sandbox spec (``local``, ``docker``, ``docker:IMAGE``)."""
    from sandbox.backends import SandboxSpec

    try:
        return str(SandboxSpec.parse(text))
    except ScopewatchError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def session_config(args: argparse.Namespace, **overrides: object) -> SessionConfig:
    """The session config of the shared options of ``run`` / ``serve``."""
    agents = getattr(args, "agents", "scripted") or "scripted"
    values: dict[str, object] = {
        "scenario": getattr(args, "scenario", None) or "favorbench-mini",
        "requester": getattr(args, "requester", None) or agents,
        "owner": getattr(args, "owner", None) or agents,
        "persona": getattr(args, "persona", None) or "mixed",
        "seed": getattr(args, "seed", 1),
        "trajectories": getattr(args, "trajectories", 1),
        "norms": parse_assignments(list(getattr(args, "norm", []) or [])),
        "api_base": getattr(args, "api_base", None),
        "reviewer_secret": getattr(args, "secret", None),
        "sandbox": getattr(args, "sandbox", None) or "local",
    }
    values.update(overrides)
    return SessionConfig.model_validate(values)


def print_metrics(metrics: Metrics, as_json: bool) -> None:
    """The metrics on stdout: the table, or one JSON object."""
    if as_json:
        print(json.dumps(metrics.summary(), sort_keys=True))
    else:
        print(render_table(metrics))


def say(text: str) -> None:
    """A status line for the person at the terminal (stderr, so stdout stays for results)."""
    print(f"scopewatch: {text}", file=sys.stderr, flush=True)


def freeze_heap() -> None:
    """Move everything alive now (imports, config, a replay's recording) out of the garbage
    collector's scans: full collections during a session then scan only what the session made,
    which keeps their pauses short (bench/tui_throughput.py: the worst event-loop stalls)."""
    gc.collect()
    gc.freeze()
