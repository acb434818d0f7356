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

The last table is issue 29's target, measured side by side in the same rounds: the command mix (``git
status``, ``pytest -q`` on 12 tests, a ``find`` over the 200 files) bare, with a jail per command and
with the episode's jail (both shimmed and traced, at bubblewrap; every sandbox is a second old and has run one
``git status`` before anything is timed, so neither the episode's jail, started once an episode, nor git's
re-reading of a workspace made in the index's second is in it: :func:`aged`; then each mix command has run once
bare and in each sandbox, so no first run is timed either: a workspace's first ``pytest`` writes its
``__pycache__``, an engine's first analysis of each kind of work runs in a thread), as ratios to bare by wall time
and by CPU time (the engine's and its children's: less sensitive to the machine's load), and the median ratio
of the mix. ``--mix-only`` runs that table alone. ``--baseline REV`` runs it for REV's code too (a copy
by ``git archive`` in a temporary folder), this bench driving both: each round runs one process per side,
the order alternating (ABBA), and the table gives both sides' ratios to the bare runs of their own
processes, and current / baseline.

    python bench/sandbox_overhead.py [--commands 30] [--rounds 3] [--levels bubblewrap,unshare] [--no-docker]
                                     [--mix-only] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

# The code measured: this tree, or a baseline's copy (``--baseline`` sets it for that side's processes).
sys.path.insert(0, os.environ.get("SANDBOX_OVERHEAD_TREE") or str(Path(__file__).resolve().parent.parent))

from channel.emitter import Emitter
from channel.memory import InProcessBus
from channel.vocab.topics import EVENTS
from sandbox.backends.local import LocalSandbox
from sandbox.errors import SandboxError
from sandbox.jail.isolation import SYSTEM_PATH, Isolation, _works
from sandbox.workspace.ownership import Ownership

ROOT = Path(__file__).resolve().parent.parent
FILES = {f"src/pkg_{i // 20}/module_{i}.py": f"VALUE = {i}\n" for i in range(200)}
FILES.update(
    {
        f"tests/test_part_{i}.py": f"def test_add_{i}():\n    assert {i} + 1 == {i + 1}\n\n"
        f"def test_str_{i}():\n    assert str({i}) == '{i}'\n"
        for i in range(6)
    }
)
COMMAND = "git status --short"
MIX = {
    "git status": COMMAND,
    "pytest -q (12 tests)": "python3 -m pytest -q -p no:cacheprovider tests",
    "find (200 files)": "find . -type f -not -path './.git/*' | wc -l",
}
"""Issue 29's command mix."""
GIT_TARGET, MIX_TARGET = 3.0, 2.0
"""Issue 29's done-when: ``git status`` at most 3x bare, the mix's median at most 2x."""
RACY_S = 1.1
"""Seconds past the workspace's making before the first command (see :func:`aged`)."""
SETTLE = 0.3
"""Seconds between two variants of a round (see :func:`mix_samples`)."""


def _cpu(sb: LocalSandbox | None = None) -> float:
    """CPU seconds so far: the engine's and its reaped children's, and with ``sb`` also those of the
    processes alive in its cgroup and of the children they reaped (an episode's jail reaps its commands
    itself: they are never the engine's children), and of the answerers of the jails' folder opens."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    total = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    cgroup = sb._shell._cgroup if sb is not None else None
    for pid in [*(cgroup.pids() if cgroup is not None else ()), *_answerers(sb)]:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime
    return total


def _answerers(sb: LocalSandbox | None) -> list[int]:
    """The answerers of the episode jails' folder opens (outside the jails' cgroups; none in older trees)."""
    try:
        from sandbox.commands.answerers import pids
    except ImportError:
        return []
    return pids() if sb is not None else []


def _bare_env() -> dict[str, str]:
    env = {"PATH": f"{os.path.dirname(sys.executable)}:{SYSTEM_PATH}", "LANG": "C.UTF-8", "HOME": "/nonexistent"}
    # The workspace is the jail's uid's: without this, a bare git as the engine's uid stops at once.
    env.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="safe.directory", GIT_CONFIG_VALUE_0="*")
    return env


async def bare(root: Path, n: int, command: str = COMMAND) -> tuple[float, float]:
    """Seconds per command by wall and by CPU (the engine's and its children's)."""
    env = _bare_env()
    start, cpu = time.perf_counter(), _cpu()
    for _ in range(n):
        proc = await asyncio.create_subprocess_exec(
            "bash", "-c", command, cwd=root, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"bare {command!r} failed: {out[-300:]!r}")
    return (time.perf_counter() - start) / n, (_cpu() - cpu) / n


def _engine_cpu() -> float:
    """CPU seconds of the engine's own process so far (every thread; no child)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


async def sandboxed(sb: LocalSandbox, n: int, command: str = COMMAND) -> tuple[float, float, float]:
    """Seconds per command by wall, by CPU (:func:`_cpu`) and by the engine's own CPU."""
    start, cpu, own = time.perf_counter(), _cpu(sb), _engine_cpu()
    for _ in range(n):
        result = await sb.run_shell("dev", command, timeout=120)
        if result.exit_code != 0:
            raise SystemExit(f"{command!r} failed in {sb.label}: {result.output[-300:]}")
    return (time.perf_counter() - start) / n, (_cpu(sb) - cpu) / n, (_engine_cpu() - own) / n


async def _create(bus: InProcessBus, level: str, jail: str, **kwargs: object) -> LocalSandbox:
    """A sandbox whose commands get a jail each (``jail="command"``) or share the episode's."""
    os.environ["SCOPEWATCH_JAIL"] = jail
    try:
        sb = await LocalSandbox.create(
            FILES,
            ownership=Ownership.from_teams([("dev", ["**"])]),
            emitter=Emitter(bus, level),
            isolation=kwargs.pop("isolation", None) or Isolation(level),  # type: ignore[arg-type]
            **kwargs,  # type: ignore[arg-type]
        )
    finally:
        os.environ.pop("SCOPEWATCH_JAIL", None)
    sb.register_actor("dev", "dev")
    return sb


async def open_variants(bus: InProcessBus, levels: tuple[str, ...], docker: bool) -> dict[str, LocalSandbox]:
    ownership = Ownership.from_teams([("dev", ["**"])])
    found: dict[str, LocalSandbox] = {}
    for level in (*levels, "none"):
        if level == "none" or await _works(level):  # type: ignore[arg-type]
            for hardened in (True, False) if level != "none" else (True,):
                sb = await _create(bus, level, "command", isolation=Isolation(level, hardened=hardened))  # type: ignore[arg-type]
                found[f"local/{level}" if hardened else f"local/{level} unhardened"] = sb
            if level != "none":
                sb = await _create(bus, level, "command")
                sb._shell._filter_fd = lambda: None  # type: ignore[method-assign]  # the filter alone off
                found[f"local/{level} no filter"] = sb
        if level == "bubblewrap" and "local/bubblewrap" in found:
            found["local/bubblewrap episode"] = await _create(bus, level, "episode")
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


async def aged(sandboxes: Sequence[LocalSandbox]) -> None:
    """Each sandbox past git's racy window, its index refreshed and its jail started, before anything is timed.

    A file changed in the second its index was written is "racily clean" to git: every ``git status`` reads it
    whole again until the index is written a second later. Right after the sandbox is made that is every file
    of the workspace (206 ``openat`` a ``git status``, each a tracer stop), which no agent sees: its first
    command comes seconds after the workspace is made. So the bench waits that second out, and one ``git
    status`` (as the warm-up command: the episode's jail starts on the first command, once an episode,
    ~0.2 s) writes each index anew."""
    await asyncio.sleep(RACY_S)
    for sb in sandboxes:
        await sb.run_shell("dev", "git status --short > /dev/null", timeout=120)


Samples = dict[str, dict[str, list[tuple[float, ...]]]]
"""Mix command -> variant (bare, command, episode) -> (wall, CPU[, the engine's own CPU]) seconds per
command, one per round."""


async def mix_samples(commands: int, rounds: int) -> tuple[Samples, tuple[str, str], list[float]]:
    """Issue 29's mix bare, per command and per episode, side by side: the samples, the two sandboxes'
    labels and the load average at the start and after each round."""
    bus = InProcessBus()
    sub = await bus.subscribe(EVENTS)
    per_command = await _create(bus, "bubblewrap", "command", watch=True)
    per_episode = await _create(bus, "bubblewrap", "episode", watch=True)
    await aged((per_command, per_episode))
    for command in MIX.values():  # each command once bare and in each sandbox before anything is timed (the module)
        await bare(per_command.root, 1, command)
        for sb in (per_command, per_episode):
            await sandboxed(sb, 1, command)
    samples: Samples = {label: {} for label in MIX}
    load = [os.getloadavg()[0]]
    try:
        for _ in range(rounds):
            for label, command in MIX.items():
                for variant, run in (
                    ("bare", bare(per_command.root, commands, command)),
                    ("command", sandboxed(per_command, commands, command)),
                    ("episode", sandboxed(per_episode, commands, command)),
                ):
                    samples[label].setdefault(variant, []).append(await run)
                    # What a variant leaves the kernel to do (the jails' namespaces torn down by a kernel
                    # worker after their processes ended: six network namespaces a round on the per-command
                    # path) is not the next variant's cost.
                    await asyncio.sleep(SETTLE)
                while len(sub):  # type: ignore[arg-type]
                    await sub.get()
            load.append(os.getloadavg()[0])
    finally:
        labels = (per_command.label, per_episode.label)
        for sb in (per_command, per_episode):
            await sb.close()
        await bus.close()
    return samples, labels, load


def _ratios(samples: Samples) -> dict[str, dict[str, float]]:
    """Per mix command: medians in ms and ratios to bare (wall and CPU) of both jailed variants."""
    out: dict[str, dict[str, float]] = {}
    for label in MIX:
        wall = {v: statistics.median(s[0] for s in samples[label][v]) for v in ("bare", "command", "episode")}
        cpu = {v: statistics.median(s[1] for s in samples[label][v]) for v in ("bare", "command", "episode")}
        out[label] = {f"{v} ms": wall[v] * 1000 for v in wall}
        out[label].update({f"{v} cpu ms": cpu[v] * 1000 for v in cpu})
        out[label]["episode engine ms"] = statistics.median(s[2] for s in samples[label]["episode"]) * 1000
        out[label].update({"command": wall["command"] / wall["bare"], "episode": wall["episode"] / wall["bare"]})
        out[label].update({"command cpu": cpu["command"] / cpu["bare"], "episode cpu": cpu["episode"] / cpu["bare"]})
    return out


def print_mix(samples: Samples, labels: tuple[str, str], load: list[float], commands: int, rounds: int) -> None:
    rows = _ratios(samples)
    loads = f"load average {min(load):.2f}-{max(load):.2f}"
    print(f"\nissue 29 mix: {commands} commands x {rounds} rounds, medians; {loads}")
    print(f"per command: {labels[0]}; per episode: {labels[1]}")
    head = f"{'command':<22} {'bare ms':>8} {'command ms':>11} {'episode ms':>11}"
    print(f"{head} {'x bare':>7} {'episode x bare':>15} {'cpu x bare':>11} {'episode cpu x':>14}")
    for label, r in rows.items():
        ms = f"{label:<22} {r['bare ms']:>8.1f} {r['command ms']:>11.1f} {r['episode ms']:>11.1f}"
        print(f"{ms} {r['command']:>7.2f} {r['episode']:>15.2f} {r['command cpu']:>11.2f} {r['episode cpu']:>14.2f}")
    median = {
        key: statistics.median(r[key] for r in rows.values())
        for key in ("command", "episode", "command cpu", "episode cpu")
    }
    tail = f"{'mix (median ratio)':<22} {'':>8} {'':>11} {'':>11}"
    cpus = f"{median['command cpu']:>11.2f} {median['episode cpu']:>14.2f}"
    print(f"{tail} {median['command']:>7.2f} {median['episode']:>15.2f} {cpus}")
    git = rows["git status"]["episode"]
    print(f"target: git status <= {GIT_TARGET:g}x bare: {git:.2f}x ({'met' if git <= GIT_TARGET else 'not met'})")
    verdict = "met" if median["episode"] <= MIX_TARGET else "not met"
    print(f"target: mix median <= {MIX_TARGET:g}x bare: {median['episode']:.2f}x ({verdict})")


async def mix(commands: int, rounds: int) -> None:
    """Issue 29's table (see the module): the mix bare, per command and per episode, side by side."""
    if not await _works("bubblewrap"):
        print("mix: skipped (bubblewrap does not work here)")
        return
    samples, labels, load = await mix_samples(commands, rounds)
    print_mix(samples, labels, load, commands, rounds)


def against_baseline(rev: str, commands: int, rounds: int) -> None:
    """The mix for ``rev``'s code and this tree's, one process per side and round, ABBA (see the module)."""
    merged: dict[str, Samples] = {"baseline": {}, "current": {}}
    loads: list[float] = []
    with tempfile.TemporaryDirectory(prefix="sandbox-overhead-") as tmp:
        trees = {"baseline": Path(tmp), "current": ROOT}
        archive = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        for n in range(rounds):
            for side in ("baseline", "current") if n % 4 in (0, 3) else ("current", "baseline"):
                env = {**os.environ, "SANDBOX_OVERHEAD_TREE": str(trees[side]), "PYTHONPATH": str(trees[side])}
                argv = [sys.executable, __file__, "--mix-worker", "--rounds", "1", "--mix-commands", str(commands)]
                done = subprocess.run(argv, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.stderr.write(done.stderr[-4000:])
                    why = f"the {side} side's round {n + 1} failed (exit {done.returncode}): its stderr above"
                    raise SystemExit(why)
                got = json.loads(done.stdout.splitlines()[-1])
                loads += got["load"]
                for label, variants in got["samples"].items():
                    for variant, values in variants.items():
                        merged[side].setdefault(label, {}).setdefault(variant, []).extend(map(tuple, values))
                print(f"  round {n + 1} {side:9} load {got['load'][0]:.2f}", file=sys.stderr, flush=True)
    rows = {side: _ratios(samples) for side, samples in merged.items()}
    print(
        f"\nissue 29 mix against {rev}: {commands} commands x {rounds} rounds a side, ABBA, medians; "
        f"load average {min(loads):.2f}-{max(loads):.2f}"
    )
    columns = ("bare ms", "episode ms", "episode x bare", "episode cpu ms", "cpu x bare", "engine cpu ms")
    print(f"{'command':<22}" + "".join(f" {c:>15}" for c in columns) + f" {'now/base':>9}")
    print(f"{'':<22}" + "".join(f" {'base / now':>15}" for _ in columns) + f" {'episode':>9}")
    keys = ("bare ms", "episode ms", "episode", "episode cpu ms", "episode cpu", "episode engine ms")
    for label in MIX:
        b, c = rows["baseline"][label], rows["current"][label]
        cells = "".join(f" {b[k]:>7.2f} {c[k]:>7.2f}" for k in keys)
        print(f"{label:<22}{cells} {c['episode ms'] / b['episode ms']:>9.2f}")
    for side in rows:
        median = statistics.median(r["episode"] for r in rows[side].values())
        cpu = statistics.median(r["episode cpu"] for r in rows[side].values())
        print(f"mix median, episode x bare, {side}: {median:.2f} (CPU {cpu:.2f})")


async def main(commands: int, rounds: int, levels: tuple[str, ...], docker: bool) -> None:
    bus = InProcessBus()
    sub = await bus.subscribe(EVENTS)
    variants = await open_variants(bus, levels, docker)
    await aged(list(variants.values()))
    root = next(iter(variants.values())).root
    times: dict[str, list[float]] = {"bare": [], **{name: [] for name in variants}}
    try:
        for _ in range(rounds):
            times["bare"].append((await bare(root, commands))[0])
            for name, sb in variants.items():
                times[name].append((await sandboxed(sb, commands))[0])
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
    parser.add_argument("--mix-only", action="store_true", help="only issue 29's mix table")
    parser.add_argument("--mix-commands", type=int, default=5, help="runs of each mix command per round and variant")
    parser.add_argument(
        "--baseline", metavar="REV", help="the mix for REV's code too, side by side (implies --mix-only)"
    )
    parser.add_argument("--mix-worker", action="store_true", help=argparse.SUPPRESS)  # one side's round, as JSON
    args = parser.parse_args()
    if args.mix_worker:
        samples, labels, load = asyncio.run(mix_samples(args.mix_commands, args.rounds))
        print(json.dumps({"samples": samples, "labels": labels, "load": load}))
        sys.exit(0)
    if args.baseline:
        against_baseline(args.baseline, args.mix_commands, args.rounds)
        sys.exit(0)
    levels = tuple(args.levels.split(","))
    if not set(levels) <= {"bubblewrap", "unshare"}:
        parser.error(f"--levels: {args.levels!r}: each must be bubblewrap or unshare")
    if not args.mix_only:
        asyncio.run(main(args.commands, args.rounds, levels, not args.no_docker))
    asyncio.run(mix(args.mix_commands, args.rounds))
