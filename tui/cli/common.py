"""What several subcommands share: the error printed as one line, the session options, the session
config built from them, the metrics output, and the heap freeze before a screen opens."""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import re
import sys
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, get_args

from channel.errors import ScopewatchError
from channel.text import printable
from channel.vocab import Condition
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms, norms_help, parse_assignments
from engine.scoring.metrics import Metrics
from engine.scoring.tables import render_table, unscored_note

EXIT_USAGE = 2


class CliError(ScopewatchError):
    """A user-facing error: printed as one line ``scopewatch: <message>``, exit code 2."""


def cannot_write(option: str, out: str | os.PathLike[str], exc: OSError) -> CliError:
    """The one line for a file a command cannot make (``--html``, ``-o``, ``--out``), with the reason, as
    ``--record``'s (channel/recorder.py)."""
    return CliError(f"{option} {out}: cannot write it ({exc.strerror or exc})")


def new_output(option: str, out: str) -> Path:
    """The path of a file a command is about to make: one line when it exists, or when its place cannot
    even be looked into (a folder the user may not enter: ``exists()`` raises)."""
    path = Path(out)
    try:
        taken = path.exists() or path.is_symlink()
    except OSError as exc:
        raise cannot_write(option, out, exc) from None
    if taken:
        raise CliError(f"{option} {out}: the file exists; choose a new name")
    return path


class HelpFormatter(argparse.HelpFormatter):
    """Every option's help ends with its default, when it has one worth showing (not a flag's: a
    ``--no-X`` flag's default True would read as if the flag were on)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "%(default)" in text or default in (None, False, [], argparse.SUPPRESS) or not action.option_strings:
            return text
        if action.nargs == 0 or "(default" in text:  # a flag, or a help that names its default already
            return text
        return f"{text} (default: %(default)s)"


class CliParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line naming the option and what is allowed
    (``scopewatch run: --seed: invalid int value: 'abc'``), exit code 2; its subcommands' parsers
    are of the same kind."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {_option_first(message)}\n")


def _option_first(message: str) -> str:
    """argparse's "argument --seed: invalid ..." as "--seed: invalid ..."."""
    message = re.sub(r"^argument (COMMAND|ACTION): invalid choice: ", r"unknown \1 ", message)
    message = message.replace("unknown COMMAND ", "unknown command ").replace("unknown ACTION ", "unknown action ")
    return re.sub(r"^argument ([^:]+): ", r"\1: ", message)


THEME_HELP = "colour theme: scopewatch-dark, scopewatch-light, scopewatch-contrast or scopewatch-cb"


def base_url(text: str) -> str:
    """An argparse type: an ``http://`` or ``https://`` URL with a host (a model endpoint's base)."""
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"expected an http:// or https:// URL with a host, got {text!r}")
    try:
        parts.port  # noqa: B018  (urllib checks the port only when asked: 0-65535)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}") from None
    if parts.port == 0:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}")
    return text


MOST = 1_000_000
"""The largest count an option takes (trajectories, jobs, samples, tokens...): more is a typo, and a
count past ``sys.maxsize`` would end in a traceback."""


def positive(text: str) -> int:
    """An argparse type: a whole number from 1 to :data:`MOST`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    if value > MOST:
        raise argparse.ArgumentTypeError(f"must be at most {MOST:,}, got {text}")
    return value


def tcp_port(text: str) -> int:
    """An argparse type: a TCP port to listen on, 1 to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port (1-65535): {value}")
    return value


def _finite_positive(what: str, *, zero: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number greater than 0 (``zero``: of at least 0)."""
    bound = "of at least 0" if zero else "greater than 0"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"must be a finite number {bound}, got {text!r}")
        return value

    return parse


pause_seconds = _finite_positive("a number of seconds", zero=True)
"""An argparse type: a finite number of seconds of at least 0 (a pace: 0 is none)."""
seconds = _finite_positive("a number of seconds")
"""An argparse type: a finite positive number of seconds."""
speed = _finite_positive("a number greater than 0")
"""An argparse type: a finite playback speed greater than 0."""


def usage_for(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """The handler of a command given without its action: its help on stderr, exit code 2."""

    def usage(_: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return EXIT_USAGE

    return usage


def executor_spec(text: str) -> str:
    """An argparse type: where units run in parallel (``local``, ``ray``, ``ray://HOST:PORT``)."""
    from engine.pool.units import EXECUTORS, valid_executor

    if not valid_executor(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not {EXECUTORS}")
    return text


def add_parallel_options(p: argparse.ArgumentParser, units: str, *, when: str = "") -> None:
    """``--jobs N`` (default: the number of cores) and ``--executor local|ray|ray://HOST:PORT``: the
    ``units`` run in parallel through engine/pool/units.py, with the results of ``--jobs 1``."""
    p.add_argument(
        "--jobs",
        type=positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help=f"{when}{units} run in parallel, each on a worker process of its own; the results equal --jobs 1's "
        "(default: the number of cores, %(default)s)",
    )
    p.add_argument(
        "--executor",
        type=executor_spec,
        default="local",
        metavar="WHERE",
        help=f"{when}where the {units} run in parallel: local (worker processes), ray (a Ray on this machine "
        "with --jobs CPUs) or ray://HOST:PORT (a Ray cluster; needs scopewatch[ray])",
    )


def add_session_options(p: argparse.ArgumentParser) -> None:
    """The options of ``run`` and ``serve``: scenario, agents, seed, trajectories, norms, recording."""
    p.add_argument(
        "--scenario",
        default="favorbench-mini",
        metavar="NAME|PATH",
        help="built-in pack or suite (favorbench-mini, favorbench, favorbench/<domain>), a pack folder, or an "
        "audit scenario id (scopewatch overeager list)",
    )
    p.add_argument(
        "--agents",
        default="scripted",
        metavar="KIND",
        help="agents for every role: 'scripted' (offline default), a litellm model string, "
        "cmd:'<command line>' (any command-line coding agent, run in the sandbox, ticket on stdin), "
        "mini-swe-agent:MODEL, acp:'<command>' (any agent speaking the Agent Client Protocol, one prompt "
        "per turn; acp:gemini-cli:MODEL: the installed Gemini CLI in its ACP mode; favor packs only, not audit "
        "scenarios), or an agent product: "
        "claude-code:MODEL, codex:MODEL, gemini-cli:MODEL "
        "(NAME-gated:MODEL: its permission gate on; scopewatch agents install NAME)",
    )
    p.add_argument("--requester", metavar="KIND", help="agent for the requester role (overrides --agents)")
    p.add_argument("--owner", metavar="KIND", help="agent for the owner role (overrides --agents)")
    p.add_argument(
        "--persona",
        default="mixed",
        choices=["mixed", "cautious", "helpful", "careful", "overeager", "moderate"],
        help="scripted owner persona; on an audit scenario, the profile (cautious, overeager, else moderate)",
    )
    p.add_argument(
        "--api-base", type=base_url, metavar="URL", help="base URL for a local OpenAI-compatible server / Ollama"
    )
    add_model_options(p)
    add_turn_timeout(p)
    p.add_argument(
        "--test-timeout",
        type=seconds,
        metavar="SECONDS",
        help="how long each test may take when the engine runs a task's tests (contract, harm and hidden tests); "
        "a test past it fails as hung and the others still run (default: no limit per test, 60 s for the whole run)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed for scripted agents and task order")
    p.add_argument("--trajectories", type=positive, default=1, metavar="N", help="how many trajectories to run")
    p.add_argument(
        "--condition",
        choices=get_args(Condition),
        help="how trajectories are drawn (seed 000): warm-safe = 2 benign warm-ups, 5 traps, 5 twins; warm-trap = "
        "2 trap warm-ups, 5 traps, 5 twins; all-trap = 2 trap warm-ups, 10 traps; safe-only = 2 benign warm-ups, "
        "8 safe instances, 2 twins (default: warm-safe where the pack gives it, else the pack's own first "
        "trajectory)",
    )
    p.add_argument(
        "--trajectory",
        metavar="NAME",
        help="run the pack's own [[trajectories]] entry NAME instead of a condition's draw "
        "('scopewatch scenarios list' shows them)",
    )
    p.add_argument(
        "--norm",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"set a norm, repeatable (e.g. own_task_only=true, ci_feedback=causal). Norms and values: {norms_help()}",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        help="write every event to this JSONL recording (a new file; ending .jsonl.gz: gzip-compressed)",
    )
    add_sandbox_option(p)
    p.add_argument("--bus", metavar="URL", help="message bus: omit for in-process, or mqtt://host:port")


def add_turn_timeout(p: argparse.ArgumentParser) -> None:
    """``--turn-timeout``: the bound of one turn of an agent process (``SessionConfig.turn_timeout``)."""
    p.add_argument(
        "--turn-timeout",
        type=seconds,
        metavar="SECONDS",
        help="how long one turn of an agent process may take: an acp: agent's session/prompt (then the session "
        "stops; its start-up, initialize and session/new, is bounded by --timeout), an agent product's or "
        "command-line agent's whole run (then it is stopped) (default: 900, a command-line adapter's own timeout)",
    )


def add_model_options(p: argparse.ArgumentParser) -> None:
    """How LLM agents call their model: calls in flight, timeout, streaming, reply length."""
    p.add_argument(
        "--max-concurrency",
        type=positive,
        metavar="N",
        help="model calls in flight at once across the agents (default: one per agent)",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        default=120.0,
        metavar="SECONDS",
        help="how long one model call of a litellm agent (or the judge) may take before it is retried; an agent "
        "product calls its model itself: its whole run is bounded by --turn-timeout",
    )
    p.add_argument(
        "--no-stream",
        dest="stream",
        action="store_false",
        help="ask models for whole replies instead of streamed tokens (some servers stream badly)",
    )
    p.add_argument(
        "--max-tokens",
        type=positive,
        metavar="N",
        help="at most N tokens per model reply (default: the provider's; a slow local model wants a bound)",
    )


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
    from sandbox.backends.opener import SandboxSpec

    try:
        return str(SandboxSpec.parse(text))
    except ScopewatchError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def session_config(args: argparse.Namespace, **overrides: object) -> SessionConfig:
    """The session config of the shared options of ``run`` / ``serve``."""
    agents = getattr(args, "agents", "scripted") or "scripted"
    scenario = getattr(args, "scenario", None) or "favorbench-mini"
    if Path(scenario).expanduser().is_dir():  # a pack's folder: recorded by its absolute path (fork finds it anywhere)
        from scenarios.catalog import scenario_kind

        scenario_kind(scenario)  # the folder is taken before a built-in of its name: the log says so
        scenario = str(Path(scenario).expanduser().resolve())
    values: dict[str, object] = {
        "scenario": scenario,
        "requester": getattr(args, "requester", None) or agents,
        "owner": getattr(args, "owner", None) or agents,
        "persona": getattr(args, "persona", None) or "mixed",
        "seed": getattr(args, "seed", 1),
        "trajectories": getattr(args, "trajectories", 1),
        "condition": getattr(args, "condition", None),
        "trajectory": getattr(args, "trajectory", None),
        "norms": parse_assignments(list(getattr(args, "norm", []) or []), base=starting_norms(scenario)),
        "api_base": getattr(args, "api_base", None),
        "max_concurrency": getattr(args, "max_concurrency", None),
        "max_tokens": getattr(args, "max_tokens", None),
        "timeout": getattr(args, "timeout", 120.0),
        "turn_timeout": getattr(args, "turn_timeout", None),
        "test_timeout": getattr(args, "test_timeout", None),
        "stream": getattr(args, "stream", True),
        "reviewer_secret": getattr(args, "secret", None),
        "sandbox": getattr(args, "sandbox", None) or "local",
    }
    values.update(overrides)
    config = SessionConfig.model_validate(values)
    if config.norms.reviewer == "room" and not config.room:  # no vote would ever decide a review
        raise CliError("--norm reviewer=room: the room's votes decide reviews; serve the session with --room NAME")
    return config


def starting_norms(scenario: str) -> Norms:
    """The norms a pack's sessions start from (:func:`scenarios.catalog.starting_norms`; the scoring
    names norm groups relative to the same)."""
    from scenarios.catalog import starting_norms as of_scenario

    return of_scenario(scenario)


def print_metrics(metrics: Metrics, as_json: bool) -> None:
    """The metrics on stdout: the table, or one JSON object; episodes left unscored because their test runs
    crashed are also one warning line on stderr (the JSON's ``unscored`` names them)."""
    if metrics.unscored:
        say(f"warning: {unscored_note(metrics)}")
    if as_json:
        write = sys.stdout.write
        for piece in metrics.summary_json():  # in pieces, not one string
            write(piece)
        print()
    else:
        print(printable(render_table(metrics), keep_lines=True))


def say(text: str) -> None:
    """A status line for the person at the terminal (stderr, so stdout stays for results)."""
    print(f"scopewatch: {printable(text)}", file=sys.stderr, flush=True)


def warn_red_contracts(scenario: str) -> None:
    """One warning line for each pack from a folder whose contract tests fail on its base repo: harm to that team
    could never be seen, every favor would count as harmless (the built-in packs are validated by the test suite)."""
    from engine.validation.pack_checks import base_contract_problem
    from scenarios.catalog import scenario_kind, session_suite
    from scenarios.loader import PACKS_DIR

    if scenario_kind(scenario) != "favor":
        return
    for pack in session_suite(scenario).packs:
        if pack.folder.resolve().is_relative_to(PACKS_DIR):
            continue
        problem = asyncio.run(base_contract_problem(pack))
        if problem is not None:
            say(f"warning: {problem}")


def freeze_heap() -> None:
    """Move everything alive now (imports, config, a replay's recording) out of the garbage
    collector's scans: full collections during a session then scan only what the session made,
    which keeps their pauses short (bench/tui_throughput.py: the worst event-loop stalls)."""
    gc.collect()
    gc.freeze()


def progress_bars(*, transient: bool = True) -> Any:
    """The CLI's one kind of progress display: rich bars on stderr (description, bar, done/total,
    elapsed), so stdout stays the result (``--json``)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=Console(stderr=True), transient=transient)
