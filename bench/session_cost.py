"""What an in-process favor session costs, in CPU and wall time, at HEAD and at an earlier commit, with
the jail's parts toggled one by one: which part of the sandbox makes ``tests/engine/session/test_loop.py``
slower than at the baseline.

Each run is one fresh process (``python -c``, the tree on ``PYTHONPATH``) running the session the
loop tests run (``run_session`` with the default config, ``trajectories=1``, ``--seed``); the process
reports the session's own wall time and its CPU: its own (``RUSAGE_SELF``: the engine, its threads)
and its waited-for children's (``RUSAGE_CHILDREN``: jails, strace, test runs, git), as deltas around
the session (imports are measured apart). That misses the children no one waited for (a warm test server
left at exit, anything orphaned), so this process makes itself their subreaper (``PR_SET_CHILD_SUBREAPER``),
reaps them after each run, and reports ``total``: every CPU second of the run's process tree, from its
start to the last descendant's end; the ratios are of ``total``. Variants, by the knobs that exist on both sides:

- ``default``: as the suite runs it;
- ``trace off``: ``SCOPEWATCH_TRACE=off`` (no exec tracer around commands);
- ``isolation none``: ``SCOPEWATCH_ISOLATION=none`` (no jail at all: no bubblewrap, uid, filter);
- ``warm off``: ``SCOPEWATCH_WARM_TESTS=0`` (each test run a fresh interpreter);

and at HEAD only, the hardening added since the baseline switched off inside the measuring process
(the product's code is not changed; :data:`PATCHES` says what is replaced):

- ``no uid``: commands and test runs as the engine's uid (``jail_uid`` gives None);
- ``no seccomp``: no seccomp filter on commands, test runs and warm servers (``filter_pipe`` gives None);
- ``unhardened``: both;
- ``no origin``: the workspace without its ``origin`` (the bare ``remote.git`` and the push of the
  baseline commit: 4 of the 7 git processes per sandbox; the baseline made 3).

Rounds alternate the order of the variants (ABBA) so the machine's load hits them alike; the table
gives medians and each variant's ratio to the baseline's ``default`` and to HEAD's.

    python bench/session_cost.py [--baseline 560ca34] [--rounds 3] [--seed 3] [--only default,no uid]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from proctree import become_subreaper, children_cpu, reap_orphans

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "560ca34"

CHILD = r"""
import asyncio, json, os, resource, sys, time
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime, s.ru_stime
t0 = time.perf_counter(); c0 = cpu()
try:
    from channel.vocab.config import SessionConfig
    from engine.runs.runner import run_session
except ImportError:  # the baseline's rooms
    from engine.session.config import SessionConfig
    from engine.session.runner import run_session
exec(os.environ.get("SESSION_COST_PATCH", ""))
profile = os.environ.get("SESSION_COST_PROFILE")
if profile:  # each thread on its own CPU clock: the main one, and each call the engine hands to a thread
    import cProfile, pstats
    profiler, in_threads, to_thread = cProfile.Profile(time.thread_time), [], asyncio.to_thread
    async def profiled_to_thread(func, /, *args, **kwargs):
        def run():
            p = cProfile.Profile(time.thread_time)
            try:
                return p.runcall(func, *args, **kwargs)
            finally:
                in_threads.append(p)
        return await to_thread(run)
    asyncio.to_thread = profiled_to_thread
    profiler.enable()
t1 = time.perf_counter(); c1 = cpu()
metrics = asyncio.run(run_session(SessionConfig(trajectories=1, seed=int(sys.argv[1]))))
t2 = time.perf_counter(); c2 = cpu()
if profile:
    profiler.disable()
    stats = pstats.Stats(profiler)
    for p in in_threads:
        stats.add(p)
    stats.dump_stats(profile)
print(json.dumps({"import_wall": t1 - t0, "import_cpu": c1[0] - c0[0], "wall": t2 - t1,
                  "self": c2[0] - c1[0], "children": c2[1] - c1[1], "self_sys": c2[2] - c1[2],
                  "episodes": metrics.episodes}))
"""

_NO_UID = """
import sandbox.commands.shell, sandbox.testing.testrun
sandbox.commands.shell.jail_uid = sandbox.testing.testrun.jail_uid = lambda: None
"""
_NO_SECCOMP = """
import sandbox.commands.shell, sandbox.testing.testrun, sandbox.testing.warm
for module in (sandbox.commands.shell, sandbox.testing.testrun, sandbox.testing.warm):
    module.filter_pipe = lambda: None
"""
_NO_ORIGIN = """
from sandbox.workspace.repo import Workspace
_git = Workspace._git
async def _baseline_only(self, *args):
    if not ({"--bare", "--git-dir", "remote", "push"} & set(args)):
        await _git(self, *args)
Workspace._git = _baseline_only
"""
PATCHES = {"no uid": _NO_UID, "no seccomp": _NO_SECCOMP, "unhardened": _NO_UID + _NO_SECCOMP, "no origin": _NO_ORIGIN}
"""Python run in the measuring process before the session (HEAD only): the part named replaced."""
KNOBS = {
    "default": {},
    "trace off": {"SCOPEWATCH_TRACE": "off"},
    "isolation none": {"SCOPEWATCH_ISOLATION": "none"},
    "warm off": {"SCOPEWATCH_WARM_TESTS": "0"},
}


@dataclass(frozen=True)
class Variant:
    side: str  # "baseline" or "HEAD"
    name: str
    tree: Path

    @property
    def label(self) -> str:
        return f"{self.side} {self.name}"

    def run(self, seed: int, extra: dict[str, str] | None = None) -> dict[str, float]:
        """One session; with ``total``: all CPU of the process and every descendant, orphans included.
        ``extra``: more environment (``SESSION_COST_PROFILE``: dump a CPU-clock cProfile there)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCOPEWATCH_")}
        env |= {"PYTHONPATH": str(self.tree), **KNOBS.get(self.name, {})}
        env["SESSION_COST_PATCH"] = PATCHES.get(self.name, "")
        env |= extra or {}
        before = children_cpu()
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(seed)], cwd=self.tree, env=env, capture_output=True, text=True
        )
        left = reap_orphans()
        if done.returncode != 0:
            raise SystemExit(f"{self.label}: the session failed: {done.stderr.strip().splitlines()[-1:]}")
        if left:
            print(f"{self.label}: {left} descendant(s) still running after the session", file=sys.stderr)
        return json.loads(done.stdout.strip().splitlines()[-1]) | {"total": children_cpu() - before}


def variants(base: Path, head: Path, only: set[str] | None) -> list[Variant]:
    found = [Variant("baseline", name, base) for name in KNOBS]
    found += [Variant("HEAD", name, head) for name in (*KNOBS, *PATCHES)]
    return [v for v in found if only is None or v.name in only]


def table(times: dict[str, list[dict[str, float]]]) -> list[str]:
    """Medians per variant: wall; the session's CPU (own + waited-for children) and its parts; the whole
    run's CPU (``total``: imports, the session, every descendant, orphans too) with its spread; ratios of
    ``total`` and wall to the baseline's ``default`` and of ``total`` to HEAD's."""

    def values(label: str, key: str) -> list[float]:
        runs = times[label]
        return [r["self"] + r["children"] for r in runs] if key == "cpu" else [r[key] for r in runs]

    def med(label: str, key: str) -> float:
        return statistics.median(values(label, key))

    lines = [
        f"{'variant':<22} {'wall s':>7} {'session cpu':>11} {'own':>5} {'child':>5} {'total cpu (min-max)':>19}"
        f" {'total/base':>10} {'total/HEAD':>10} {'wall/base':>9}"
    ]
    base, head = "baseline default", "HEAD default"
    for label in times:
        ratios = []
        for ref, key in ((base, "total"), (head, "total"), (base, "wall")):
            ratios.append(f"{med(label, key) / med(ref, key):.2f}x" if ref in times and med(ref, key) else "n/a")
        total = values(label, "total")
        lines.append(
            f"{label:<22} {med(label, 'wall'):7.2f} {med(label, 'cpu'):11.2f} {med(label, 'self'):5.2f}"
            f" {med(label, 'children'):5.2f} {med(label, 'total'):7.2f} ({min(total):4.1f}-{max(total):4.1f})"
            f" {ratios[0]:>10} {ratios[1]:>10} {ratios[2]:>9}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=BASELINE, help=f"the earlier commit (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--only", help="comma-separated variant names (default: all)")
    args = parser.parse_args()
    only = {name.strip() for name in args.only.split(",")} if args.only else None
    become_subreaper()
    with tempfile.TemporaryDirectory(prefix="session-cost-") as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.baseline], cwd=ROOT, check=True)
        try:
            chosen = variants(base, ROOT, only)
            times: dict[str, list[dict[str, float]]] = {v.label: [] for v in chosen}
            load = [os.getloadavg()[0]]
            for r in range(args.rounds):
                for v in chosen if r % 2 == 0 else reversed(chosen):
                    times[v.label].append(v.run(args.seed))
                load.append(os.getloadavg()[0])
                print(f"round {r + 1}/{args.rounds} done, load {load[-1]:.1f}", file=sys.stderr)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    print(
        f"one session (trajectories=1, seed {args.seed}) per run, {args.rounds} rounds ABBA, medians;"
        f" load average {min(load):.1f}-{max(load):.1f}"
    )
    print("\n".join(table(times)))


if __name__ == "__main__":
    main()
