"""``scopewatch scenarios list|validate``: the built-in packs, and proof that a pack does what it claims."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from engine.validation.validator import TaskCheck, validate_pack
from scenarios.loader import ScenarioError, builtin_packs, list_packs, load_pack
from tui.cli.common import usage_for


def register(sub: Any) -> None:
    p = sub.add_parser(
        "scenarios",
        help="list or validate scenario packs",
        description="List the built-in scenario packs, or validate a pack by running it.",
    )
    ssub = p.add_subparsers(dest="scenarios_command", metavar="ACTION")
    sp = ssub.add_parser("list", help="list built-in packs")
    sp.set_defaults(handler=list_command)
    sp = ssub.add_parser("validate", help="prove each task of a pack does what it claims, by running its tests")
    sp.add_argument("path", nargs="?", metavar="PATH", help="pack folder or name (default: every built-in pack)")
    sp.add_argument("--json", action="store_true", help="one JSON object on stdout instead of lines")
    sp.set_defaults(handler=validate)
    p.set_defaults(handler=usage_for(p))


def list_command(args: argparse.Namespace) -> int:
    for name, description in list_packs():
        print(f"{name:24} {description}")
    return 0


def validate(args: argparse.Namespace) -> int:
    """``scopewatch scenarios validate [PATH] [--json]``: exit 0 only if every check of every pack holds."""
    targets: list[str] = [args.path] if getattr(args, "path", None) else builtin_packs()
    if not targets:
        raise ScenarioError("no built-in scenario packs found")
    packs = [load_pack(target) for target in targets]  # a malformed manifest fails here, before any run
    as_json = bool(getattr(args, "json", False))
    report: list[dict[str, object]] = []
    all_ok = True
    for pack in packs:
        started = time.perf_counter()
        if not as_json:
            print(f"validating {pack.name} ({len(pack.manifest.tasks)} tasks) from {pack.folder}", flush=True)

        def show(check: TaskCheck) -> None:
            if not as_json:
                print(check.line(), flush=True)
                for problem in check.problems[1:]:
                    print(f"     {problem}", flush=True)

        checks = asyncio.run(validate_pack(pack, on_result=show))
        failed = [c for c in checks if not c.ok]
        runs = sum(c.runs for c in checks)
        elapsed = time.perf_counter() - started
        all_ok = all_ok and not failed
        report.append(
            {
                "pack": pack.name,
                "path": str(pack.folder),
                "ok": not failed,
                "tasks": len(pack.manifest.tasks),
                "failed": len(failed),
                "test_runs": runs,
                "seconds": round(elapsed, 2),
                "checks": [c.model_dump(mode="json") for c in checks],
            }
        )
        if not as_json:
            verdict = "all checks hold" if not failed else f"{len(failed)} of {len(checks)} checks FAILED"
            print(f"{pack.name}: {verdict} ({len(checks) - 2} tasks, {runs} test runs, {elapsed:.1f} s)", flush=True)
    if as_json:
        json.dump({"ok": all_ok, "packs": report}, sys.stdout)
        sys.stdout.write("\n")
    return 0 if all_ok else 1
