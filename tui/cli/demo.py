"""``scopewatch demo``: the live TUI on the built-in scenario with scripted agents, offline."""

from __future__ import annotations

import argparse
from typing import Any

from channel.vocab.config import SessionConfig
from tui.cli.common import THEME_HELP
from tui.cli.live import open_live
from tui.cli.run import DEMO_PACE


def register(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="the live TUI on the built-in scenario with scripted agents (offline)",
        description="Open the live TUI on the built-in scenario with scripted agents.",
    )
    p.add_argument("--seed", type=int, default=1, help="seed for the scripted agents and the task order")
    p.add_argument(
        "--scenario",
        default="favorbench-mini",
        metavar="NAME",
        help="favorbench-mini (default), another built-in pack, or cooperbench (branches; build it first)",
    )
    p.add_argument("--theme", metavar="NAME", help=THEME_HELP)
    p.add_argument("--web", action="store_true", help="serve the demo to a browser (textual-serve)")
    p.set_defaults(handler=demo)


def demo(args: argparse.Namespace) -> int:
    """No flags needed: the built-in scenario, scripted agents, a pace people can follow, one
    trajectory after another until you quit."""
    if getattr(args, "web", False):
        from tui.cli.web import web

        return web(args)
    scenario = getattr(args, "scenario", None) or "favorbench-mini"
    config = SessionConfig(scenario=scenario, seed=getattr(args, "seed", 1), pace=DEMO_PACE, repeat=True)
    return open_live(config, theme=getattr(args, "theme", None), record=None)
