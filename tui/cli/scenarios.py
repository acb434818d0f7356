"""``scopewatch scenarios list|validate|trajectories|generate``: the built-in packs and suites, proof that
a pack does what it claims, the trajectories a condition draws, and the FavorBench generator."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from channel.errors import ScopewatchError
from engine.session.trajectory import CONDITIONS, TrajectoryError, plan_trajectories, resolve_draw
from engine.validation.suites import PackReport, validate_suite
from scenarios.catalog import catalog, scenario_kind, session_suite
from scenarios.cooperbench.build import load_pack as load_branch_pack
from scenarios.identity import short_hash
from scenarios.loader import PACKS_DIR, ScenarioError, builtin_packs
from scenarios.suite import Suite, load_suite
from tui.cli.common import EXIT_USAGE, CliError, add_parallel_options, positive, progress_bars, say, usage_for
from tui.cli.cooperbench import register_build, validate_command


def register(sub: Any) -> None:
    p = sub.add_parser(
        "scenarios",
        help="list, validate, sample or generate scenario packs",
        description="List the built-in scenario packs, validate a pack by running it, print the trajectories "
        "a condition draws, regenerate FavorBench, or build the CooperBench pack (from PyPI).",
    )
    ssub = p.add_subparsers(dest="scenarios_command", metavar="ACTION")
    sp = ssub.add_parser("list", help="list built-in packs and suites, and each pack's own trajectories")
    sp.add_argument("path", nargs="?", metavar="PATH", help="pack or suite: folder or name (default: every built-in)")
    sp.add_argument(
        "--json",
        action="store_true",
        help="one JSON object: name, domains, families, instances, pack hashes, trajectories",
    )
    sp.set_defaults(handler=list_command)
    sp = ssub.add_parser("validate", help="prove each task of a pack does what it claims, by running its tests")
    sp.add_argument("path", nargs="?", metavar="PATH", help="pack or suite: folder or name (default: every built-in)")
    sp.add_argument("--json", action="store_true", help="one JSON object on stdout instead of lines")
    sp.add_argument(
        "--test-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="per-test time limit; a test past it is reported as hanging",
    )
    add_parallel_options(sp, "packs")
    sp.set_defaults(handler=validate)
    sp = ssub.add_parser("trajectories", help="print the trajectories a condition draws (what run would do)")
    sp.add_argument("--scenario", default="favorbench", metavar="NAME|PATH", help="built-in pack or suite, or a folder")
    sp.add_argument(
        "--condition",
        choices=CONDITIONS,
        help="how trajectories are drawn (default, as run: warm-safe where every pack gives it, else each pack's own)",
    )
    sp.add_argument("--trajectory", metavar="NAME", help="the packs' own trajectory NAME instead (as run)")
    sp.add_argument("--count", type=positive, default=50, metavar="N", help="how many trajectories")
    sp.add_argument("--seed", type=int, default=1, help="the seed run would get")
    sp.add_argument("--json", action="store_true", help="one JSON object on stdout")
    sp.set_defaults(handler=trajectories)
    sp = ssub.add_parser("generate", help="regenerate the FavorBench suite, validate it, exclude what fails")
    sp.add_argument("--seed", type=int, default=0, help="generator seed (0 is the shipped pack)")
    sp.add_argument(
        "--out", metavar="DIR", help="where to write the suite (default: the built-in scenarios/packs/favorbench)"
    )
    sp.add_argument("--no-validate", action="store_true", help="write without running the validator")
    add_parallel_options(sp, "packs")
    sp.set_defaults(handler=generate)
    register_build(ssub)
    p.set_defaults(handler=usage_for(p))


def _summary(suite: Suite) -> dict[str, object]:
    return {
        "name": suite.name,
        "description": suite.description,
        "domains": list(suite.domains),
        "families": list(suite.families),
        "instances": suite.counts(),
        "pack_hashes": {pack.name: pack.pack_hash for pack in suite.packs},
        "trajectories": [
            {"name": t.name, "pack": pack.name, "tasks": list(t.tasks)}
            for pack in suite.packs
            for t in pack.manifest.trajectories
        ],
    }


def _own_trajectories(suite: Suite) -> str:
    """The packs' own ``[[trajectories]]`` (what ``run --trajectory NAME`` takes), as one line."""
    named: dict[str, list[int]] = {}
    for pack in suite.packs:
        for trajectory in pack.manifest.trajectories:
            named.setdefault(trajectory.name, []).append(len(trajectory.tasks))
    if not named:
        return f"trajectories: none of its own ({_drawn(suite)})"
    parts = []
    for name, sizes in named.items():
        tasks = _n(sizes[0], "task") if len(set(sizes)) == 1 else f"{min(sizes)}-{max(sizes)} tasks"
        where = f", in {len(sizes)} of {len(suite.packs)} packs" if len(suite.packs) > 1 else ""
        parts.append(f"{name} ({tasks}{where})")
    return "trajectories: " + ", ".join(parts)


def _drawn(suite: Suite) -> str:
    """What a run of a suite without own trajectories does: the default draw, else all of each pack's tasks, and
    the conditions ``--condition`` can draw from it (none, for a pack without warm-ups)."""
    drawable = []
    for condition in CONDITIONS:
        try:
            resolve_draw(suite, condition)
        except TrajectoryError:
            continue
        drawable.append(condition)
    default = resolve_draw(suite).condition
    plain = f"a run draws {default}" if default else "a run takes all its tasks"
    if not drawable:
        return f"{plain}; no --condition can be drawn from it"
    return f"{plain}; --condition draws {', '.join(drawable)}"


def _branch_summary() -> dict[str, object]:
    """The CooperBench branch pack: built or not, and when built its projects and instances, or (a pack file
    ``run`` would refuse) ``error``, the one line ``run`` gives."""
    known = catalog()
    if not known.branch_built:
        return {"name": known.branch, "built": False}
    try:
        pack = load_branch_pack()
    except ScenarioError as exc:
        return {"name": known.branch, "built": True, "error": str(exc)}
    return {"name": known.branch, "built": True, "projects": sorted(pack.projects), "instances": len(pack.instances)}


def _print_branch(summary: dict[str, object]) -> None:
    name = str(summary["name"])
    print(f"{name:24} CooperBench in branch mode (seed 000 A.2): pinned PyPI projects, feature pairs on branches")
    if "error" in summary:
        print(f"{'':24} refused: {summary['error']}")
    elif summary["built"]:
        projects = summary["projects"]
        assert isinstance(projects, list)
        print(f"{'':24} {len(projects)} projects ({', '.join(projects)}), {summary['instances']} instances")
    else:
        print(f"{'':24} not built yet: scopewatch scenarios build {name}")


def list_command(args: argparse.Namespace) -> int:
    """``scopewatch scenarios list [PATH] [--json]``: every name ``run --scenario`` takes (scenarios/catalog.py):
    the built-in packs and suites, the CooperBench branch pack, and how many audit scenarios ship."""
    path = getattr(args, "path", None)
    as_json = bool(getattr(args, "json", False))
    if path is not None and scenario_kind(path) == "audit":
        raise CliError(f"{path!r} is an audit scenario, not a pack: scopewatch overeager show {path}")
    if path is not None and scenario_kind(path) == "branch":
        summary = _branch_summary()
        if "error" in summary:
            raise ScenarioError(str(summary["error"]))
        if as_json:
            print(json.dumps({"branch": summary}))
        else:
            _print_branch(summary)
        return 0
    # Every built-in: the manifests alone (what the lines print); a pack or suite named: loaded whole, its hash shown.
    suites = [session_suite(path)] if path else [load_suite(name, lazy=True) for name in builtin_packs()]
    _refuse_trap_problems(suites)
    branch = None if path else _branch_summary()
    audit = None if path else len(catalog().audit)
    if as_json:
        extra = {} if path else {"branch": branch, "audit": {"scenarios": audit}}
        print(json.dumps({"packs": [_summary(s) for s in suites], **extra}))
        return _branch_refused(branch)
    for suite in suites:
        counts = suite.counts()
        size = f"{len(suite.packs)} domains, " if len(suite.packs) > 1 else ""
        tally = ", ".join(f"{n} {v}" for v, n in counts.items())
        print(f"{suite.name:24} {suite.description}\n{'':24} {size}{tally}\n{'':24} {_own_trajectories(suite)}")
        if path and len(suite.packs) == 1:
            print(f"{'':24} pack hash {suite.packs[0].pack_hash}")
        elif path:
            print("\n".join(f"{'':24} pack hash {short_hash(p.pack_hash)} {p.name}" for p in suite.packs))
    if branch is not None:
        _print_branch(branch)
        print(f"{'overeager':24} {audit} audit scenarios of seed 003, each runnable by id: scopewatch overeager list")
    return _branch_refused(branch)


def _branch_refused(branch: dict[str, object] | None) -> int:
    """Every other pack listed, a branch pack file ``run`` refuses is the exit code ``run`` gives and its one line on
    stderr too (``list`` said nothing and ``run`` refused it)."""
    if branch is None or "error" not in branch:
        return 0
    print(f"scopewatch: {branch['error']}", file=sys.stderr)
    return EXIT_USAGE


def _refuse_trap_problems(suites: list[Suite]) -> None:
    """What ``run`` refuses at load and the manifest cannot check (a trap's atom the registry does not know): one
    line naming the pack's file and field, as ``run`` says it (``list`` took such a pack, exit 0). Manifest only,
    no repo read."""
    from engine.scoring.verdicts import trap_problems

    for suite in suites:
        for pack in suite.packs:
            problems = trap_problems(pack)
            if problems:
                raise ScenarioError(problems[0])


class _Bar:
    """Progress on stderr while packs validate, advanced per task: a rich bar when stderr is a terminal, else a
    line now and then once validating has taken a while (a pack of a thousand tasks ran minutes without a word)."""

    QUIET_SECONDS = 10.0
    """No line before this (most packs are done by then), then at most one per this many seconds."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.progress: Any = None
        self.total = total
        self.done = 0
        self.started = self.said = time.monotonic()
        if enabled:
            self.progress = progress_bars()
            self.task = self.progress.add_task("validating", total=total)
            self.progress.start()

    def advance(self, label: str) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress.update(self.task, advance=1, description=f"validating {label}")
            return
        now = time.monotonic()
        if now - self.said >= self.QUIET_SECONDS and self.done < self.total:
            self.said = now
            print(
                f"validating {label}: {self.done} of {_n(self.total, 'task')} ({now - self.started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _print_pack(result: PackReport, *, quiet_ok: bool) -> None:
    """One pack's checks in manifest order (every line, or only failures within a suite of several),
    then its verdict."""
    if not quiet_ok:
        print(f"validating {result.pack} ({_n(result.tasks, 'task')}) from {result.path}")
    for check in result.checks:
        if check.ok and quiet_ok:
            continue
        print(check.line() if not quiet_ok else f"{result.pack}: {check.line()}")
        for problem in check.problems[1:]:
            print(f"     {problem}")
    verdict = "all checks hold" if result.ok else f"{result.failed} of {len(result.checks)} checks FAILED"
    counts = f"{_n(result.validated, 'task')}, {_n(result.runs, 'test run')}, {result.seconds:.1f} s"
    print(f"{result.pack}: {verdict} ({counts})", flush=True)


def _entry(result: PackReport) -> dict[str, object]:
    return {
        "pack": result.pack,
        "path": result.path,
        "ok": result.ok,
        "tasks": result.tasks,
        "failed": result.failed,
        "test_runs": result.runs,
        "seconds": result.seconds,
        "checks": [c.model_dump(mode="json") for c in result.checks],
    }


def validate(args: argparse.Namespace) -> int:
    """``scopewatch scenarios validate [PATH] [--json] [--jobs N]``: exit 0 only if every check of every
    pack holds. The packs run as units in parallel (engine/validation/suites.py); what is printed is
    the same for every ``--jobs``. With ``--json`` a pack that does not load is the same one object on stdout
    (``ok`` false, ``error`` its line, no packs), besides the line on stderr and exit code 2."""
    path = getattr(args, "path", None)
    if path is not None and scenario_kind(path) == "branch":
        return validate_command(args)
    try:
        return _validate(args)
    except ScopewatchError as exc:
        if getattr(args, "json", False):
            json.dump({"ok": False, "error": str(exc), "packs": []}, sys.stdout)
            sys.stdout.write("\n")
        raise


def _validate(args: argparse.Namespace) -> int:
    targets: list[str] = [args.path] if getattr(args, "path", None) else builtin_packs()
    if not targets:
        raise ScenarioError("no built-in scenario packs found")
    suites = [load_suite(target) for target in targets]  # a malformed manifest fails here, before any run
    as_json = bool(getattr(args, "json", False))
    test_timeout = float(getattr(args, "test_timeout", 10.0))
    if test_timeout <= 0:
        raise CliError(f"--test-timeout: must be more than 0 seconds, got {test_timeout:g}")
    jobs = int(getattr(args, "jobs", 1))
    executor = str(getattr(args, "executor", "local"))
    results: list[PackReport] = []
    started = time.perf_counter()
    for suite in suites:
        many = len(suite.packs) > 1
        bar = _Bar(sum(len(p.manifest.tasks) for p in suite.packs), enabled=sys.stderr.isatty())

        def shown(result: PackReport, many: bool = many) -> None:
            if not as_json:
                _print_pack(result, quiet_ok=many)

        try:
            results += validate_suite(
                suite, jobs=jobs, executor=executor, test_timeout=test_timeout, on_task=bar.advance, on_pack=shown
            )
        finally:
            bar.stop()
    all_ok = all(result.ok for result in results)
    if as_json:
        json.dump({"ok": all_ok, "packs": [_entry(r) for r in results]}, sys.stdout)
        sys.stdout.write("\n")
    elif len(results) > 1:
        failed = sum(r.failed for r in results)
        tasks = sum(r.tasks for r in results)
        elapsed = time.perf_counter() - started
        verdict = "all checks hold" if all_ok else f"{_n(failed, 'check')} FAILED"
        print(f"{_n(len(results), 'pack')}, {_n(tasks, 'task')}: {verdict} ({elapsed:.1f} s)", flush=True)
    return 0 if all_ok else 1


def trajectories(args: argparse.Namespace) -> int:
    """``scopewatch scenarios trajectories [--condition C | --trajectory NAME] --count N --seed S``: what ``run``
    would draw, with run's default when neither is given."""
    suite = load_suite(args.scenario)
    draw = resolve_draw(suite, args.condition, args.trajectory)
    plans = plan_trajectories(
        suite, condition=args.condition, seed=args.seed, count=args.count, trajectory=args.trajectory
    )
    drawn = draw.condition or f"the packs' own trajectory {draw.trajectory or '(first)'}"
    if args.json:
        rows = [
            {
                "trajectory": plan.number,
                "pack": plan.pack.name,
                "tasks": [{"id": i, "variant": plan.pack.manifest.task(i).variant} for i in plan.tasks],
            }
            for plan in plans
        ]
        head = {"scenario": suite.name, "condition": draw.condition, "trajectory": draw.trajectory, "seed": args.seed}
        print(json.dumps({**head, "trajectories": rows}))
        return 0
    count = "1 trajectory" if len(plans) == 1 else f"{len(plans)} trajectories"
    print(f"# {suite.name}, {drawn}, seed {args.seed}: {count}")
    for plan in plans:
        marks = {"warmup": "w", "trap": "T", "twin": "t", "safe": "s"}
        tasks = " ".join(f"{marks[plan.pack.manifest.task(i).variant]}:{i}" for i in plan.tasks)
        print(f"{plan.number:3d} {plan.pack.name}  {tasks}")
    return 0


def generate(args: argparse.Namespace) -> int:
    """Render the suite, validate every instance in a scratch copy, and write it without the ones that fail
    (each listed in ``suite.toml`` with its reason)."""
    from scenarios.generate import SUITE_NAME, render_suite, write_suite

    target = Path(args.out) if args.out else PACKS_DIR / SUITE_NAME
    files = render_suite(args.seed)
    excluded: dict[str, str] = {}
    if not args.no_validate:
        with tempfile.TemporaryDirectory(prefix="scopewatch-generate-") as scratch:
            write_suite(Path(scratch) / SUITE_NAME, files)
            suite = load_suite(Path(scratch) / SUITE_NAME)
            bar = _Bar(sum(len(p.manifest.tasks) for p in suite.packs), enabled=sys.stderr.isatty())
            try:
                results = validate_suite(suite, jobs=args.jobs, executor=args.executor, on_task=bar.advance)
            finally:
                bar.stop()
            for result in results:
                for check in result.checks:
                    if check.ok:
                        continue
                    if check.task.startswith("("):
                        raise CliError(f"{result.pack}: {check.line()}")
                    excluded[check.task] = check.problems[0]
                    task = suite.pack(result.pack).manifest.task(check.task)
                    if task.twin_of:  # a pair goes together
                        excluded.setdefault(task.twin_of, f"its twin {task.id} failed")
        for task_id, reason in sorted(excluded.items()):
            say(f"excluded {task_id}: {reason}")
        files = render_suite(args.seed, excluded=excluded)
    write_suite(target, files)
    counts = load_suite(target).counts()
    say(f"wrote {len(files)} files to {target}: " + ", ".join(f"{n} {v}" for v, n in counts.items()))
    return 0


def _n(count: int, noun: str) -> str:
    """``1 task``, ``2 tasks``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
