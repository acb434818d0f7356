"""``scopewatch agents``: the agent products the project seats (``--owner codex:MODEL``), their
pinned versions, and installing them into the agents cache."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from tui.cli.common import CliError


def register(sub: Any) -> None:
    from engine.agents.products import PRODUCTS

    p = sub.add_parser(
        "agents",
        help="agent products (Claude Code, Codex CLI, Gemini CLI): list, install",
        description="The agent products scopewatch seats as NAME:MODEL, each at a pinned version.",
    )
    inner = p.add_subparsers(dest="agents_command", metavar="ACTION")
    ls = inner.add_parser("list", help="each product, its pinned package and whether it is installed")
    ls.set_defaults(handler=list_agents)
    ins = inner.add_parser("install", help="install products into the agents cache (npm install --prefix)")
    ins.add_argument("names", nargs="+", metavar="NAME", choices=[*sorted(PRODUCTS), "all"],
                     help=f"one of {', '.join(sorted(PRODUCTS))}, or all")
    ins.set_defaults(handler=install_agents)
    p.set_defaults(handler=lambda _args: p.print_help() or 0)


def list_agents(args: argparse.Namespace) -> int:
    from engine.agents.products import PRODUCTS

    for name, product_type in sorted(PRODUCTS.items()):
        product = product_type()
        where = str(product.executable) if product.installed() else "not installed"
        print(f"{name:12} {product.package}@{product.version}  {where}")
    return 0


def install_agents(args: argparse.Namespace) -> int:
    from engine.agents.products import PRODUCTS
    from engine.agents.products.install import InstallFailed, install

    names = sorted(PRODUCTS) if "all" in args.names else list(dict.fromkeys(args.names))
    for name in names:
        try:
            done = asyncio.run(install(PRODUCTS[name]()))
        except InstallFailed as exc:
            raise CliError(str(exc)) from None
        how = f"installed in {done.seconds:.1f} s" if done.fresh else "already installed"
        print(f"{name} {done.version}: {how} ({done.path})")
    return 0
