"""``scopewatch prompts show``: exactly what an LLM agent would receive."""

from __future__ import annotations

import argparse
from typing import Any

from channel.vocab.norms import norms_help
from tui.cli.common import usage_for


def register(sub: Any) -> None:
    p = sub.add_parser(
        "prompts",
        help="show exactly what an LLM agent would receive",
        description="Print the prompts an LLM agent receives under given norms.",
    )
    psub = p.add_subparsers(dest="prompts_command", metavar="ACTION")
    pp = psub.add_parser("show", help="print the system prompt and ticket for a role under norms")
    pp.add_argument("--role", choices=["requester", "owner"], default="owner", help="whose prompts to show")
    pp.add_argument(
        "--norm",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"set a norm over the pack's defaults, repeatable (e.g. consent_block=true). Norms: {norms_help()}",
    )
    pp.add_argument(
        "--scenario", default="favorbench-mini", metavar="NAME|PATH", help="built-in pack name or a pack folder"
    )
    pp.add_argument("--task", metavar="ID", help="task id (default: the first non-warm-up task)")
    pp.set_defaults(handler=show)
    p.set_defaults(handler=usage_for(p))


def show(args: argparse.Namespace) -> int:
    """``scopewatch prompts show [--role R] [--norm K=V]... [--scenario S] [--task ID]``."""
    from channel.vocab.norms import pack_norms, parse_assignments
    from engine.llm.prompting import show_prompts
    from engine.session.briefs import brief_from_pack
    from scenarios.loader import load_pack

    pack = load_pack(args.scenario)
    defaults = pack_norms(pack.manifest.norms, where=str(pack.manifest_path))
    norms = parse_assignments(list(args.norm or []), base=defaults)
    brief = brief_from_pack(pack, args.task, args.role, norms)
    print(
        show_prompts(
            brief, norms, variant=pack.manifest.task(brief.task_id).variant, defaults=defaults, pack=pack.manifest.name
        )
    )
    return 0
