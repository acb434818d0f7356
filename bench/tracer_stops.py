"""Where a traced command's time goes: strace alone (no jail, no shim, no engine) around a loop of one command,
untraced and traced as the exec tracer runs it, with and without the opens in its trace set, on any CPU and on
one CPU (as an episode's jail runs, :mod:`sandbox.jail.cpus`), optionally beside busy loops.

Each variant is one process running the command N times in a ``bash`` loop, so strace starts once and its price
per command is its stops alone. The workspace is a git repository of 200 small files (as ``sandbox_overhead.py``'s).
Rounds alternate between the variants; the table gives the median ms per command and the ratio to untraced on any
CPU. What it shows (docs/performance.md): the tracer's price is mostly its stops on ``openat``, and on an idle
machine a stop that crosses CPUs wakes the other one.

    python bench/tracer_stops.py [--commands 100] [--rounds 3] [--busy 0] [--command "git status --short"]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox.commands.tracer import SYSCALLS, Tracer
from sandbox.jail.isolation import SYSTEM_PATH

OPENS = ("open", "openat", "openat2", "creat")
WITHOUT_OPENS = ",".join(call for call in SYSCALLS.split(",") if call not in OPENS)


def _repo(root: Path) -> None:
    for i in range(200):
        path = root / f"src/pkg_{i // 20}/module_{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"VALUE = {i}\n")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@invalid"]
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "files"]):
        subprocess.run([*git, *argv], cwd=root, check=True)
    (root / "src/pkg_0/module_0.py").write_text("VALUE = -1\n")


def _variants(strace: str, output: Path) -> dict[str, list[str]]:
    traced = Tracer(strace=strace, seccomp=True).argv(output)
    without = [("trace=" + WITHOUT_OPENS) if a.startswith("trace=") else a for a in traced]
    return {"untraced": [], "traced": traced, "traced, no opens": without}


def _run(prefix: list[str], command: str, n: int, root: Path, cpu: int | None) -> float:
    loop = f'for i in $(seq {n}); do bash -c "$CMD" > /dev/null; done'
    env = {"PATH": SYSTEM_PATH, "HOME": str(root), "LANG": "C.UTF-8", "CMD": command}

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    start = time.perf_counter()
    subprocess.run([*prefix, "bash", "-c", loop], cwd=root, env=env, check=True, preexec_fn=pin)
    return (time.perf_counter() - start) / n * 1000


def main(command: str, n: int, rounds: int, busy: int) -> None:
    strace = shutil.which("strace", path=SYSTEM_PATH)
    if strace is None:
        raise SystemExit("strace is not installed")
    cpus = sorted(os.sched_getaffinity(0))
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(busy)]
    try:
        with tempfile.TemporaryDirectory(prefix="tracer-stops-") as tmp:
            root = Path(tmp) / "repo"
            root.mkdir()
            _repo(root)
            variants = _variants(strace, Path(tmp) / "trace")
            samples: dict[tuple[str, str], list[float]] = {}
            for _ in range(rounds):
                for name, prefix in variants.items():
                    for where, cpu in (("any CPU", None), ("one CPU", cpus[0] if len(cpus) > 1 else None)):
                        samples.setdefault((name, where), []).append(_run(prefix, command, n, root, cpu))
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    base = statistics.median(samples[("untraced", "any CPU")])
    print(f"{command!r}: {n} a round x {rounds} rounds, {busy} busy loops beside, load {os.getloadavg()[0]:.2f}")
    print(f"{'variant':<18} {'where':<8} {'ms a command':>12} {'x untraced':>10}")
    for (name, where), values in samples.items():
        ms = statistics.median(values)
        print(f"{name:<18} {where:<8} {ms:>12.2f} {ms / base:>10.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", default="git status --short", help="the shell command run in the loop")
    parser.add_argument("--commands", type=int, default=100, help="runs of the command per variant and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the variants alternate within each)")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the runs (0: an idle machine)")
    args = parser.parse_args()
    main(args.command, args.commands, args.rounds, args.busy)
