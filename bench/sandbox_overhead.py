"""Per-command overhead of each sandbox backend against a bare subprocess.

One shell command (``git status --short``, shimmed: it is recorded) is run N times:

- ``bare``: ``bash -c`` as a plain subprocess in the workspace (no shim, no jail, no reconcile);
- ``local/<level>``: ``LocalSandbox.run_shell`` at each isolation level that works here (the jail,
  the shim and its audit channel, the shim check, the reconcile and the events): a new jail (and
  exec tracer) per command;
- ``local/bubblewrap episode``: the same with one jail and one tracer per sandbox, each command a
  fork and exec by the jail's command server (``SCOPEWATCH_JAIL=episode``, :mod:`sandbox.commands.episode`);
- ``local/<level> unhardened``: the same jail without its hardening (the engine's uid, no seccomp
  filter): the second table gives the hardened jail's cost as a ratio to it, measured side by side;
- ``local/<level> no filter``: the hardened jail (its uid) without the seccomp filter alone: the last
  table gives the filter's per-command cost as the ratio with / without it;
- ``docker``: ``DockerSandbox.run_shell`` (a ``docker exec`` in the sandbox's container), when an
  engine is reachable and the image is there.

Rounds alternate between the variants so machine load hits them alike; the table gives the median
per-command time and the ratio to ``bare``.

    python bench/sandbox_overhead.py [--commands 30] [--rounds 3] [--levels bubblewrap,unshare] [--no-docker]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from channel.emitter import Emitter
from channel.memory import InProcessBus
from channel.vocab.topics import EVENTS
from sandbox.backends.local import LocalSandbox
from sandbox.errors import SandboxError
from sandbox.jail.isolation import Isolation, _works
from sandbox.workspace.ownership import Ownership

FILES = {f"src/module_{i}.py": f"VALUE = {i}\n" for i in range(50)}
COMMAND = "git status --short"


async def bare(root: Path, n: int) -> float:
    # The workspace is the jail's uid's: without this, a bare git as the engine's uid stops at once.
    env = {**os.environ, "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "*"}
    start = time.perf_counter()
    for _ in range(n):
        proc = await asyncio.create_subprocess_exec(
            "bash", "-c", COMMAND, cwd=root, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"bare {COMMAND!r} failed: {out[-300:]!r}")
    return (time.perf_counter() - start) / n


async def sandboxed(sb: LocalSandbox, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        await sb.run_shell("dev", COMMAND)
    return (time.perf_counter() - start) / n


async def open_variants(bus: InProcessBus, levels: tuple[str, ...], docker: bool) -> dict[str, LocalSandbox]:
    ownership = Ownership.from_teams([("dev", ["**"])])
    found: dict[str, LocalSandbox] = {}
    for level in (*levels, "none"):
        if level == "none" or await _works(level):  # type: ignore[arg-type]
            for hardened in (True, False) if level != "none" else (True,):
                sb = await LocalSandbox.create(
                    FILES,
                    ownership=ownership,
                    emitter=Emitter(bus, level),
                    isolation=Isolation(level, hardened=hardened),  # type: ignore[arg-type]
                )
                found[f"local/{level}" if hardened else f"local/{level} unhardened"] = sb
            if level != "none":
                sb = await LocalSandbox.create(
                    FILES,
                    ownership=ownership,
                    emitter=Emitter(bus, level),
                    isolation=Isolation(level),  # type: ignore[arg-type]
                )
                sb._shell._filter_fd = lambda: None  # type: ignore[method-assign]  # the filter alone off
                found[f"local/{level} no filter"] = sb
        if level == "bubblewrap" and "local/bubblewrap" in found:
            os.environ["SCOPEWATCH_JAIL"] = "episode"
            try:
                found["local/bubblewrap episode"] = await LocalSandbox.create(
                    FILES, ownership=ownership, emitter=Emitter(bus, level), isolation=Isolation(level)
                )
            finally:
                os.environ.pop("SCOPEWATCH_JAIL", None)
    if not docker:
        return found
    try:
        from sandbox.backends.docker import DockerSandbox

        found["docker"] = await DockerSandbox.create(FILES, ownership=ownership, emitter=Emitter(bus, "docker"))
    except SandboxError as exc:
        print(f"docker: skipped ({exc})", file=sys.stderr)
    for sb in found.values():
        sb.register_actor("dev", "dev")
    return found


async def main(commands: int, rounds: int, levels: tuple[str, ...], docker: bool) -> None:
    bus = InProcessBus()
    sub = await bus.subscribe(EVENTS)
    variants = await open_variants(bus, levels, docker)
    root = next(iter(variants.values())).root
    times: dict[str, list[float]] = {"bare": [], **{name: [] for name in variants}}
    try:
        for _ in range(rounds):
            times["bare"].append(await bare(root, commands))
            for name, sb in variants.items():
                times[name].append(await sandboxed(sb, commands))
                while len(sub):  # type: ignore[arg-type]
                    await sub.get()
    finally:
        for sb in variants.values():
            await sb.close()
        await bus.close()
    base = statistics.median(times["bare"])
    print(f"{commands} commands x {rounds} rounds, medians; load average {os.getloadavg()[0]:.2f}")
    print(f"{'variant':<28} {'ms/command':>11} {'x bare':>7}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:<28} {median * 1000:>11.1f} {median / base:>7.1f}")
    print(f"\n{'jail hardening (uid + seccomp)':<28} {'hardened':>9} {'before':>9} {'ratio':>6}")
    for name in times:
        if f"{name} unhardened" in times:
            hard, soft = statistics.median(times[name]), statistics.median(times[f"{name} unhardened"])
            print(f"{name:<28} {hard * 1000:>7.1f}ms {soft * 1000:>7.1f}ms {hard / soft:>6.2f}")
    print(f"\n{'seccomp filter alone':<28} {'with':>9} {'without':>9} {'ratio':>6}")
    for name in times:
        if f"{name} no filter" in times:
            hard, soft = statistics.median(times[name]), statistics.median(times[f"{name} no filter"])
            print(f"{name:<28} {hard * 1000:>7.1f}ms {soft * 1000:>7.1f}ms {hard / soft:>6.2f}")
    if "local/bubblewrap episode" in times:
        old, new = statistics.median(times["local/bubblewrap"]), statistics.median(times["local/bubblewrap episode"])
        print(f"\n{'jail per command -> per episode':<28} {old * 1000:>7.1f}ms {new * 1000:>7.1f}ms {new / old:>6.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--levels", default="bubblewrap,unshare", help="local isolation levels, comma-separated")
    parser.add_argument("--no-docker", action="store_true", help="leave the docker backend out")
    args = parser.parse_args()
    levels = tuple(args.levels.split(","))
    if not set(levels) <= {"bubblewrap", "unshare"}:
        parser.error(f"--levels: {args.levels!r}: each must be bubblewrap or unshare")
    asyncio.run(main(args.commands, args.rounds, levels, not args.no_docker))
