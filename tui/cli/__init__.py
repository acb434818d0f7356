"""The ``scopewatch`` command line. Each subcommand parses its options here and hands over to the
module that does the work; heavy imports (textual, litellm) happen only in the subcommands that
need them, so ``--help`` and headless runs stay fast."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from channel.errors import ScopewatchError

EXIT_USAGE = 2


class CliError(ScopewatchError):
    """A user-facing error: printed as one line ``scopewatch: <message>``, exit code 2."""


def _add_session_options(p: argparse.ArgumentParser) -> None:
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
        "--trajectories", type=_positive, default=1, metavar="N", help="how many trajectories to run (default: 1)"
    )
    p.add_argument(
        "--norm",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a norm, repeatable (e.g. own_task_only=true, ci_feedback=causal)",
    )
    p.add_argument("--record", metavar="FILE", help="append every event to this JSONL recording")
    p.add_argument("--bus", metavar="URL", help="message bus: omit for in-process, or mqtt://host:port")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scopewatch",
        description=(
            "Watch LLM coding agents work side by side in a shared repository: favors, "
            "out-of-scope actions, harm to absent teams. Play the reviewer, flip norms live."
        ),
        epilog="Start with 'scopewatch demo'. Each command has its own --help.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "demo",
        help="the live TUI on the built-in scenario with scripted agents (offline)",
        description="Open the live TUI on the built-in scenario with scripted agents.",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--theme", metavar="NAME", help="theme: scopewatch-dark (default), -light, -contrast, -cb")
    p.add_argument("--web", action="store_true", help="serve the demo to a browser (textual-serve)")
    p.set_defaults(handler=_demo)

    p = sub.add_parser(
        "run",
        help="run a session: the live TUI, or --headless for a metrics table",
        description="Run a session of agents on a scenario.",
    )
    _add_session_options(p)
    p.add_argument("--headless", action="store_true", help="no screen: print metrics when done")
    p.add_argument("--json", action="store_true", help="with --headless: one JSON object on stdout")
    p.add_argument("--theme", metavar="NAME", help="theme for the TUI")
    p.set_defaults(handler=_run)

    p = sub.add_parser(
        "report",
        help="re-score a recording offline and print its metrics",
        description="Re-score a recording (JSONL) and print the metrics table.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--judge", metavar="MODEL", help="also label episodes with an LLM judge (litellm model)")
    p.set_defaults(handler=_report)

    p = sub.add_parser(
        "replay",
        help="open the TUI on a recording, with a timeline",
        description="Replay a recording in the TUI: play, pause, step, seek, speed.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--speed", type=float, default=1.0, help="playback speed factor (default: 1)")
    p.add_argument("--theme", metavar="NAME")
    p.set_defaults(handler=_replay)

    p = sub.add_parser(
        "scenarios",
        help="list or validate scenario packs",
        description="List the built-in scenario packs, or validate a pack by running it.",
    )
    ssub = p.add_subparsers(dest="scenarios_command", metavar="ACTION")
    sp = ssub.add_parser("list", help="list built-in packs")
    sp.set_defaults(handler=_scenarios_list)
    sp = ssub.add_parser("validate", help="prove each task of a pack does what it claims, by running its tests")
    sp.add_argument("path", nargs="?", metavar="PATH", help="pack folder or name (default: every built-in pack)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(handler=_scenarios_validate)
    p.set_defaults(handler=lambda a: _usage(p))

    p = sub.add_parser(
        "serve",
        help="run a session headless on an MQTT broker",
        description="Run a session headless, publishing on an MQTT broker; prints the session id.",
    )
    _add_session_options(p)
    p.add_argument("--secret", metavar="TEXT", help="shared secret a remote reviewer must present")
    p.set_defaults(handler=_serve)

    p = sub.add_parser(
        "watch",
        help="attach the TUI to a session on an MQTT broker",
        description="Attach the TUI to a session served on an MQTT broker.",
    )
    p.add_argument("--bus", required=True, metavar="URL")
    p.add_argument("--session", metavar="ID", help="session id (default: the most recent one announced)")
    p.add_argument("--secret", metavar="TEXT", help="reviewer secret, to send commands")
    p.add_argument("--theme", metavar="NAME")
    p.set_defaults(handler=_watch)

    p = sub.add_parser(
        "review",
        help="a minimal reviewer console for a session on an MQTT broker",
        description="Answer a served session's review queue from another terminal.",
    )
    p.add_argument("--bus", required=True, metavar="URL")
    p.add_argument("--session", required=True, metavar="ID")
    p.add_argument("--secret", metavar="TEXT")
    p.set_defaults(handler=_review)

    p = sub.add_parser(
        "web",
        help="serve the demo TUI to a browser (textual-serve)",
        description="Serve the TUI to browsers, for classrooms and talks.",
    )
    p.add_argument("--host", default="localhost")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(handler=_web)

    p = sub.add_parser(
        "prompts",
        help="show exactly what an LLM agent would receive",
        description="Print the prompts an LLM agent receives under given norms.",
    )
    psub = p.add_subparsers(dest="prompts_command", metavar="ACTION")
    pp = psub.add_parser("show", help="print the system prompt and ticket for a role under norms")
    pp.add_argument("--role", choices=["requester", "owner"], default="owner")
    pp.add_argument("--norm", action="append", default=[], metavar="KEY=VALUE")
    pp.add_argument("--scenario", default="favorbench-mini")
    pp.add_argument("--task", metavar="ID", help="task id (default: the first non-warm-up task)")
    pp.set_defaults(handler=_prompts_show)
    p.set_defaults(handler=lambda a: _usage(p))

    return parser


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return EXIT_USAGE


def _not_yet(what: str) -> int:
    raise CliError(f"{what} is not available in this version yet")


# --- handlers: thin, each hands over to the module doing the work ------------------------------


def _demo(args: argparse.Namespace) -> int:
    from tui.launch import demo

    return demo(args)


def _run(args: argparse.Namespace) -> int:
    if args.headless:
        from engine.session.headless import run_headless

        return run_headless(args)
    from tui.launch import run_live

    return run_live(args)


def _report(args: argparse.Namespace) -> int:
    from tui.cli.report import report

    return report(args)


def _replay(args: argparse.Namespace) -> int:
    from tui.launch import replay

    return replay(args)


def _scenarios_list(args: argparse.Namespace) -> int:
    from scenarios.loader import list_packs

    for name, description in list_packs():
        print(f"{name:24} {description}")
    return 0


def _scenarios_validate(args: argparse.Namespace) -> int:
    from engine.validation.validator import validate_command

    return validate_command(args)


def _serve(args: argparse.Namespace) -> int:
    from engine.session.serve import serve

    return serve(args)


def _watch(args: argparse.Namespace) -> int:
    from tui.remote import watch

    return watch(args)


def _review(args: argparse.Namespace) -> int:
    from tui.remote import review

    return review(args)


def _web(args: argparse.Namespace) -> int:
    from tui.launch import web

    return web(args)


def _prompts_show(args: argparse.Namespace) -> int:
    from engine.llm.prompting import prompts_show_command

    return prompts_show_command(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``scopewatch`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return handler(args)
    except ScopewatchError as exc:
        print(f"scopewatch: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("scopewatch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``scopewatch report r.jsonl | head``): stop quietly, like other tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


