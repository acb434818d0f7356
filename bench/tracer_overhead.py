"""What the exec tracer costs per command: ``strace -f`` around the jail against the shim alone and a
bare subprocess, on a mix of commands.

Commands (each run N times per round, in a workspace of 200 small files and a 12-test suite):

- ``git status --short`` (shimmed: recorded by the shim; the tracer confirms the record);
- ``python3 -m pytest -q`` on the small suite (one interpreter, hundreds of opens, no shimmed program);
- ``find . -type f`` over the 200 files (one exec, many directory reads).

Variants, at the best isolation level here (bubblewrap, else unshare, else none):

- ``bare``: ``bash -c`` as a plain subprocess in the workspace (no shim, no jail, no reconcile);
- ``shim``: ``LocalSandbox.run_shell`` with ``SCOPEWATCH_TRACE=off`` (jail, shim, reconcile, events);
- ``shim+strace``: the same with the tracer (strace outside the jail, the trace parsed, its events):
  the per-command path, a new jail and a new strace per command;
- ``episode``: the same with one jail and one strace per sandbox (``SCOPEWATCH_JAIL=episode``,
  :mod:`sandbox.commands.episode`): each command a fork and exec by the jail's command server.

Rounds alternate between the variants so machine load hits them alike; the table gives the median
per-command time and the ratios ``strace / shim`` (what the tracer adds), ``x bare`` for the
per-command path and for the episode's jail, and the mix's median of those ratios.

With ``--node``, two Node programs' start-up join the table (not the mix): ``node -e 0`` and node
loading npm's modules (a product of the npm kind opens hundreds of files as it starts). With ``--every-stop``, a
variant ``no-bpf`` runs the per-command path with strace stopping on every system call (no
``--seccomp-bpf``: the tracer before it filtered in the kernel), to show what the filter saves.

    python bench/tracer_overhead.py [--commands 10] [--rounds 3] [--node] [--every-stop]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from channel.emitter import Emitter
from channel.memory import InProcessBus
from channel.vocab.topics import EVENTS
from sandbox.backends.local import LocalSandbox
from sandbox.commands import tracer
from sandbox.commands.tracer import detect_tracer
from sandbox.jail.isolation import SYSTEM_PATH, detect_isolation
from sandbox.workspace.ownership import Ownership

FILES = {f"src/pkg_{i // 20}/module_{i}.py": f"VALUE = {i}\n" for i in range(200)}
FILES.update(
    {
        f"tests/test_part_{i}.py": f"def test_add_{i}():\n    assert {i} + 1 == {i + 1}\n\n"
        f"def test_str_{i}():\n    assert str({i}) == '{i}'\n"
        for i in range(6)
    }
)
COMMANDS = {
    "git status": "git status --short",
    "pytest -q (12 tests)": "python3 -m pytest -q -p no:cacheprovider tests",
    "find (200 files)": "find . -type f -not -path './.git/*' | wc -l",
}
NPM_CLI = "/usr/lib/node_modules/npm/lib/npm.js"
NODE = {"node -e 0": "node -e 0", "node: npm's modules": f"node -e \"require('{NPM_CLI}')\""}
"""npm's modules loaded by node (``npm`` itself is shimmed: its wrapper is mounted over npm-cli.js)."""


async def bare(root: Path, command: str, n: int) -> float:
    env = {"PATH": f"{os.path.dirname(sys.executable)}:{SYSTEM_PATH}", "HOME": str(root), "LANG": "C.UTF-8"}
    # The workspace is the jail's uid's: without this, a bare git as the engine's uid stops at once.
    env.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="safe.directory", GIT_CONFIG_VALUE_0="*")
    start = time.perf_counter()
    for _ in range(n):
        proc = await asyncio.create_subprocess_exec(
            "bash", "-c", command, cwd=root, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"bare {command!r} failed: {out[-300:]!r}")
    return (time.perf_counter() - start) / n


async def sandboxed(sb: LocalSandbox, command: str, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        result = await sb.run_shell("dev", command, timeout=120)
        if result.exit_code != 0:
            raise SystemExit(f"{command!r} failed in {sb.label}: {result.output[-300:]}")
    return (time.perf_counter() - start) / n


async def open_sandbox(
    bus: InProcessBus, traced: bool, episode: bool = False, every_stop: bool = False
) -> LocalSandbox:
    if every_stop:
        level = (await detect_isolation()).level
        found = await detect_tracer(level)
        tracer._detected[level] = replace(found, seccomp=False)
    if traced:
        os.environ.pop("SCOPEWATCH_TRACE", None)
    else:
        os.environ["SCOPEWATCH_TRACE"] = "off"
    os.environ["SCOPEWATCH_JAIL"] = "episode" if episode else "command"
    try:
        sb = await LocalSandbox.create(
            FILES, ownership=Ownership.from_teams([("dev", ["**"])]), emitter=Emitter(bus, "bench"), watch=False
        )
    finally:
        os.environ.pop("SCOPEWATCH_TRACE", None)
        os.environ.pop("SCOPEWATCH_JAIL", None)
        if every_stop:
            tracer._detected.pop(level, None)
    sb.register_actor("dev", "dev")
    return sb


async def main(table: dict[str, str], commands: int, rounds: int, every_stop: bool) -> None:
    bus = InProcessBus()
    sub = await bus.subscribe(EVENTS)
    shim = await open_sandbox(bus, traced=False)
    traced = await open_sandbox(bus, traced=True)
    episode = await open_sandbox(bus, traced=True, episode=True)
    no_bpf = await open_sandbox(bus, traced=True, every_stop=True) if every_stop else None
    times: dict[tuple[str, str], list[float]] = {}
    try:
        for _ in range(rounds):
            for label, command in table.items():
                variants = [
                    ("bare", bare(shim.root, command, commands)),
                    ("shim", sandboxed(shim, command, commands)),
                    ("shim+strace", sandboxed(traced, command, commands)),
                    ("episode", sandboxed(episode, command, commands)),
                ]
                if no_bpf is not None:
                    variants.append(("no-bpf", sandboxed(no_bpf, command, commands)))
                for variant, run in variants:
                    times.setdefault((label, variant), []).append(await run)
                while len(sub):  # type: ignore[arg-type]
                    await sub.get()
    finally:
        labels = (shim.label, traced.label, episode.label)
        for sb in (shim, traced, episode, no_bpf):
            if sb is not None:
                await sb.close()
        await bus.close()
    print(f"shim: {labels[0]}; traced: {labels[1]}; episode: {labels[2]}")
    print(f"{commands} commands x {rounds} rounds, medians; load average {os.getloadavg()[0]:.2f}")
    head = f"{'command':<22} {'bare ms':>8} {'shim ms':>8} {'strace ms':>10} {'episode ms':>11}"
    print(f"{head} {'strace/shim':>12} {'x bare':>7} {'episode x bare':>15}")
    per_command, per_episode = [], []
    for label in table:
        b, s, t, e = (statistics.median(times[(label, v)]) for v in ("bare", "shim", "shim+strace", "episode"))
        if label in COMMANDS:
            per_command.append(t / b)
            per_episode.append(e / b)
        row = f"{label:<22} {b * 1000:>8.1f} {s * 1000:>8.1f} {t * 1000:>10.1f} {e * 1000:>11.1f}"
        print(f"{row} {t / s:>12.2f} {t / b:>7.1f} {e / b:>15.1f}")
    mix = f"{'mix (median ratio)':<22} {'':>8} {'':>8} {'':>10} {'':>11} {'':>12}"
    print(f"{mix} {statistics.median(per_command):>7.1f} {statistics.median(per_episode):>15.1f}")
    if every_stop:
        print(f"\n{'command':<22} {'no-bpf ms':>10} {'strace ms':>10} {'bpf / no-bpf':>13}")
        for label in table:
            n, t = (statistics.median(times[(label, v)]) for v in ("no-bpf", "shim+strace"))
            print(f"{label:<22} {n * 1000:>10.1f} {t * 1000:>10.1f} {t / n:>13.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=10, help="runs of each command per round and variant")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the variants alternate within each)")
    parser.add_argument("--node", action="store_true", help="also node -e 0 and npm --version (not in the mix)")
    parser.add_argument("--every-stop", action="store_true", help="also strace without --seccomp-bpf (no-bpf)")
    args = parser.parse_args()
    node = args.node and shutil.which("node") is not None and os.path.exists(NPM_CLI)
    if args.node and not node:
        print(f"--node: skipped (node or {NPM_CLI} is not here)", file=sys.stderr)
    table = {**COMMANDS, **(NODE if node else {})}
    asyncio.run(main(table, args.commands, args.rounds, args.every_stop))
