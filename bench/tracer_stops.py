"""Where a traced command's time goes: strace alone (no jail, no shim, no engine) around a loop of one command,
untraced and traced as the exec tracer runs it, with and without the opens in its trace set, on any CPU and on
one CPU (as an episode's jail runs, :mod:`sandbox.jail.cpus`), optionally beside busy loops.

Two more variants measure a candidate for the opens (``_notify.py``, a measuring prototype): strace without the
opens in its trace set, and the open family (``open``, ``openat``, ``openat2``, ``creat``) reported instead by a
seccomp user-notification supervisor, a thread of this process (on the loop's CPU in the one-CPU column) that reads
each open's path, makes it absolute, records it and lets the call go on. ``traced, opens notified`` notifies every
open; ``traced, opens notified, no dirs`` lets ``open``/``openat`` with ``O_DIRECTORY`` or ``O_PATH`` through in the
kernel. The filter is loaded in the child before strace's exec, so strace runs under it too (its ~40 opens at its
start are in the time, not in the count). For these two the table also gives the opens the supervisor saw a
command (the loop's ``bash`` and ``seq`` included, divided by N) and its thread's CPU time an open.

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
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _notify

from sandbox.commands.tracer import SYSCALLS, Tracer
from sandbox.jail.isolation import SYSTEM_PATH

OPENS = ("open", "openat", "openat2", "creat")
WITHOUT_OPENS = ",".join(call for call in SYSCALLS.split(",") if call not in OPENS)


def _repo(root: Path) -> None:
    for i in range(200):
        path = root / f"src/pkg_{i // 20}/module_{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"VALUE = {i}\n")
        os.utime(path, (time.time() - 60, time.time() - 60))  # older than the index: no racy entries to re-read
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@invalid"]
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "files"]):
        subprocess.run([*git, *argv], cwd=root, check=True)
    (root / "src/pkg_0/module_0.py").write_text("VALUE = -1\n")


def _variants(strace: str, output: Path) -> dict[str, tuple[list[str], bytes | None]]:
    """Each variant's strace prefix and, for the notified ones, the user-notification filter."""
    traced = Tracer(strace=strace, seccomp=True).argv(output)
    without = [("trace=" + WITHOUT_OPENS) if a.startswith("trace=") else a for a in traced]
    return {
        "untraced": ([], None),
        "traced": (traced, None),
        "traced, no opens": (without, None),
        "traced, opens notified": (without, _notify.program(dirs=True)),
        "traced, opens notified, no dirs": (without, _notify.program(dirs=False)),
    }


def _run(
    prefix: list[str], command: str, n: int, root: Path, cpu: int | None, program: bytes | None = None
) -> tuple[float, list[tuple[int, float, str, int]] | None, float]:
    """ms a command; with a filter, the opens its supervisor saw (strace's own, at its start, left out) and its
    thread's CPU time per notified open (us)."""
    loop = f'for i in $(seq {n}); do bash -c "$CMD" > /dev/null; done'
    env = {"PATH": SYSTEM_PATH, "HOME": str(root), "LANG": "C.UTF-8", "CMD": command}
    argv = [*prefix, "bash", "-c", loop]

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    if program is None:
        start = time.perf_counter()
        subprocess.run(argv, cwd=root, env=env, check=True, preexec_fn=pin)
        return (time.perf_counter() - start) / n * 1000, None, 0.0
    ours, theirs = socket.socketpair()

    def pin_and_filter() -> None:
        pin()
        _notify.install(program, theirs)

    start = time.perf_counter()
    with ours, theirs:
        proc = subprocess.Popen(argv, cwd=root, env=env, preexec_fn=pin_and_filter)
        supervisor = _notify.Supervisor(_notify.receive(ours), cpu).start()
    rc = proc.wait()
    elapsed = (time.perf_counter() - start) / n * 1000
    supervisor.close()
    if rc:
        raise subprocess.CalledProcessError(rc, argv)
    cpu_us = supervisor.cpu_seconds / max(1, len(supervisor.opens)) * 1e6
    return elapsed, [record for record in supervisor.opens if record[0] != proc.pid], cpu_us


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
            opens: dict[tuple[str, str], list[float]] = {}
            cpu: dict[tuple[str, str], list[float]] = {}
            paths: dict[str, set[str]] = {}
            load = [os.getloadavg()[0]]
            for _ in range(rounds):
                for name, (prefix, program) in variants.items():
                    for where, on in (("any CPU", None), ("one CPU", cpus[0] if len(cpus) > 1 else None)):
                        ms, seen, cpu_us = _run(prefix, command, n, root, on, program)
                        samples.setdefault((name, where), []).append(ms)
                        if seen is not None:
                            opens.setdefault((name, where), []).append(len(seen) / n)
                            cpu.setdefault((name, where), []).append(cpu_us)
                            paths.setdefault(name, set()).update(record[2] for record in seen)
                load.append(os.getloadavg()[0])
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    base = statistics.median(samples[("untraced", "any CPU")])
    print(
        f"{command!r}: {n} a round x {rounds} rounds, {busy} busy loops beside, "
        f"load {min(load):.2f}-{max(load):.2f} (1-minute average, before and after each round)"
    )
    print(f"{'variant':<32} {'where':<8} {'ms a command':>12} {'x untraced':>10} {'opens notified':>14} {'us CPU':>6}")
    for (name, where), values in samples.items():
        ms = statistics.median(values)
        seen = f"{statistics.median(opens[(name, where)]):.1f}" if (name, where) in opens else ""
        us = f"{statistics.median(cpu[(name, where)]):.1f}" if (name, where) in cpu else ""
        print(f"{name:<32} {where:<8} {ms:>12.2f} {ms / base:>10.2f} {seen:>14} {us:>6}")
    print("opens notified: a command's opens the supervisor saw (the loop's own bash and seq included, /N);")
    print("us CPU: the supervisor thread's CPU time per notified open")
    if command.split()[:1] == ["git"]:
        for name, seen_paths in paths.items():
            index = any(path.endswith("/.git/index") for path in seen_paths)
            print(f"{name}: .git/index among the notified opens: {'yes' if index else 'NO'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", default="git status --short", help="the shell command run in the loop")
    parser.add_argument("--commands", type=int, default=100, help="runs of the command per variant and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the variants alternate within each)")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the runs (0: an idle machine)")
    args = parser.parse_args()
    main(args.command, args.commands, args.rounds, args.busy)
