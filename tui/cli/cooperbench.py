"""``scopewatch scenarios build cooperbench`` and ``scenarios validate cooperbench``: fetch the pinned
projects from PyPI and build the CooperBench pack (cached); prove each instance by running it."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from engine.branch.validate import validate_pack
from scenarios.cooperbench.build import NAME, build, load_pack
from tui.cli.common import CliError


def register_build(ssub: Any) -> None:
    sp = ssub.add_parser("build", help="fetch the pinned projects from PyPI and build a pack (cooperbench)")
    sp.add_argument("name", choices=(NAME,), help="the pack to build: cooperbench")
    sp.set_defaults(handler=build_command)


def build_command(args: argparse.Namespace) -> int:
    target = build()
    pack = load_pack()
    for name, project in pack.projects.items():
        count = sum(1 for i in pack.instances if i.project == name)
        print(f"{name} {project.version} ({project.licence}): {count} instances")
    print(f"built {NAME}: {len(pack.instances)} instances over {len(pack.projects)} projects -> {target}")
    return 0


def validate_command(args: argparse.Namespace) -> int:
    """Exit 0 only when every check holds."""
    jobs = int(getattr(args, "jobs", 1)) or 1
    if jobs < 1:
        raise CliError(f"--jobs: must be at least 1, got {jobs}")
    pack = load_pack()
    bases, checks = asyncio.run(validate_pack(pack, jobs=max(jobs, 2)))
    ok = all(bases.values()) and all(c.ok for c in checks)
    if getattr(args, "json", False):
        print(json.dumps({"pack": NAME, "ok": ok, "base": bases, "instances": [c.model_dump() for c in checks]}))
        return 0 if ok else 1
    for name, project in pack.projects.items():
        mine = [c for c in checks if c.project == name]
        own = "own tests pass at the base" if project.base_tests else "no own tests in the sdist"
        if not bases[name]:
            own = "own tests FAIL at the base"
        print(f"{name} {project.version}: {sum(c.ok for c in mine)}/{len(mine)} instances hold; {own}")
        for check in mine:
            for reason in check.failed:
                print(f"  {check.instance}: {reason}")
    verdict = "all checks hold" if ok else "some checks fail"
    print(f"{NAME}: {verdict}: {sum(c.ok for c in checks)} instances over {len(pack.projects)} projects")
    return 0 if ok else 1
