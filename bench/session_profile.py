"""Where the CPU of an in-process session goes with the exec tracer on and off, function by function.

``bench/session_cost.py`` showed the tracer as the largest part of a session's extra cost against the
baseline (``SCOPEWATCH_TRACE=off`` took HEAD's session from 10.96 s to 6.42 s of CPU). This bench says on
which side of the process boundary that cost is: the engine's own reading of the trace (the streamed
reader in ``sandbox/commands/tracestream.py``, the exec images in ``images.py``) or the traced commands.

It runs HEAD's session (:data:`session_cost.CHILD`, the same session as the loop tests) in a fresh process
per run, ``default`` and ``trace off`` alternating (ABBA), each under cProfile on each thread's CPU clock
(``time.thread_time``: the main thread, and every call the engine hands to ``asyncio.to_thread``, profiled
in its thread and merged in), and prints the functions whose own time
(``tottime``) and, for the project's code, whose cumulative time grew most with the tracer, summed over the
rounds. In the traced runs strace is started through a small wrapper that reads strace's own CPU and its
tracees' (``/proc/PID/stat`` of the exited, not yet reaped strace: ``utime+stime`` and ``cutime+cstime``)
and prints their sums. The profiler inflates the engine's own CPU and the wrapper adds an interpreter start
per command to the children's: take the uninstrumented CPU from ``session_cost.py``, the split from here.

    python bench/session_profile.py [--rounds 2] [--seed 3] [--top 15]
"""

from __future__ import annotations

import argparse
import os
import pstats
import statistics
import sys
import tempfile
from pathlib import Path

from proctree import become_subreaper
from session_cost import ROOT, Variant

WRAPPER = r"""
import os, subprocess, sys
log, argv = sys.argv[1], sys.argv[2:]
proc = subprocess.Popen(argv)
os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: its /proc/PID/stat is there
fields = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()
tick = os.sysconf("SC_CLK_TCK")
own, tracees = (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick
code = proc.wait()
with open(log, "a") as out:
    out.write(f"{own} {tracees}\n")
sys.exit(code)
"""

SPLIT = """
import sys
from sandbox.commands import tracer as _tracer
_argv = _tracer.Tracer.argv
def _wrapped(self, output):
    args = _argv(self, output)
    at = args.index(self.strace)
    return [*args[:at], sys.executable, {wrapper!r}, {log!r}, *args[at:]]
_tracer.Tracer.argv = _wrapped
"""
"""Run before the session in a traced run: strace started through :data:`WRAPPER`, which logs its CPU."""

PROJECT = ("channel/", "engine/", "sandbox/", "scenarios/", "tui/")


def rows(stats: pstats.Stats) -> dict[str, tuple[float, float, int]]:
    """``file:line:function`` -> (own time, cumulative time, calls), the tree's prefix dropped."""
    found = {}
    for (file, line, name), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        where = file.removeprefix(str(ROOT) + os.sep)
        found[f"{where}:{line}:{name}"] = (own, cumulative, calls)
    return found


def grown(on: dict[str, tuple[float, float, int]], off: dict[str, tuple[float, float, int]], col: int,
          keys: list[str], top: int) -> list[str]:  # fmt: skip
    zero = (0.0, 0.0, 0)
    ranked = sorted(keys, key=lambda k: off.get(k, zero)[col] - on.get(k, zero)[col])[:top]
    return [
        f"  {on.get(k, zero)[col] - off.get(k, zero)[col]:+7.3f} s   on {on.get(k, zero)[col]:7.3f}"
        f"  off {off.get(k, zero)[col]:7.3f}   calls {on.get(k, zero)[2]}/{off.get(k, zero)[2]}   {k}"
        for k in ranked
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--top", type=int, default=15, help="functions listed per table (default 15)")
    args = parser.parse_args()
    become_subreaper()
    sides = [Variant("HEAD", "default", ROOT), Variant("HEAD", "trace off", ROOT)]
    with tempfile.TemporaryDirectory(prefix="session-profile-") as tmp:
        wrapper, log = Path(tmp) / "wrapper.py", Path(tmp) / "strace.log"
        wrapper.write_text(WRAPPER)
        dumps: dict[str, list[str]] = {v.name: [] for v in sides}
        own: dict[str, list[float]] = {v.name: [] for v in sides}
        kernel: dict[str, list[float]] = {v.name: [] for v in sides}
        loads = [os.getloadavg()[0]]
        for r in range(args.rounds):
            for v in sides if r % 2 == 0 else reversed(sides):
                dump = str(Path(tmp) / f"{v.name.replace(' ', '-')}-{r}.prof")
                extra = {"SESSION_COST_PROFILE": dump}
                if v.name == "default":
                    extra["SESSION_COST_PATCH"] = SPLIT.format(wrapper=str(wrapper), log=str(log))
                done = v.run(args.seed, extra)
                own[v.name].append(done["self"])
                kernel[v.name].append(done["self_sys"])
                dumps[v.name].append(dump)
            loads.append(os.getloadavg()[0])
            print(f"round {r + 1}/{args.rounds} done, load {loads[-1]:.1f}", file=sys.stderr)
        on, off = (rows(pstats.Stats(*dumps[name])) for name in ("default", "trace off"))
        traced = [tuple(map(float, line.split())) for line in log.read_text().splitlines()]
    everything = sorted(set(on) | set(off))
    ours = [k for k in everything if k.startswith(PROJECT)]
    print(
        f"HEAD's session (trajectories=1, seed {args.seed}), {args.rounds} rounds ABBA,"
        " cProfile on each thread's CPU clock;"
        f" load average {min(loads):.1f}-{max(loads):.1f}"
    )
    print(
        f"engine's own CPU under the profiler, median: trace on {statistics.median(own['default']):.2f} s,"
        f" off {statistics.median(own['trace off']):.2f} s (of it in the kernel: on"
        f" {statistics.median(kernel['default']):.2f} s, off {statistics.median(kernel['trace off']):.2f} s);"
        " profiled total own time, summed over the rounds:"
        f" on {sum(v[0] for v in on.values()):.2f} s, off {sum(v[0] for v in off.values()):.2f} s"
    )
    per_run = len(traced) / max(args.rounds, 1)
    print(
        f"traced commands: {len(traced)} ({per_run:.0f} a session); strace's own CPU {sum(t[0] for t in traced):.2f} s,"
        f" its tracees' (the jail and the command) {sum(t[1] for t in traced):.2f} s, summed over the rounds"
    )
    print(f"own time (tottime) grown most with the tracer, summed over {args.rounds} rounds:")
    print("\n".join(grown(on, off, 0, everything, args.top)))
    print("the project's functions whose cumulative time grew most:")
    print("\n".join(grown(on, off, 1, ours, args.top)))


if __name__ == "__main__":
    main()
