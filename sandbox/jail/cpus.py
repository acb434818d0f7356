"""The CPU an episode's jail runs on, with its exec tracer.

Under the exec tracer each traced system call of a command is a ptrace stop: the command stops, strace
wakes, decodes the call, and wakes the command again (twice per call: on entry and on exit). When the
scheduler is free to place strace and the command, they mostly run on two CPUs, and on an otherwise idle
machine every one of those wake-ups brings the other CPU out of its idle state (in a virtual machine, an
exit to the hypervisor). Kept on one CPU, a stop is a switch between two tasks of that CPU. Measured here
(2 cores, a VM, quiet; ``bench/tracer_stops.py``: strace as the tracer runs it around a loop of ``bash -c 'git
status --short'``): 16.0 ms a command on any CPU against 9.0 ms on one, 4.7 ms untraced (docs/performance.md). On
a busy machine the other CPU is awake anyway, and the two come out the same (8.3 and 8.0 ms beside two busy loops).

So an episode's jail (strace, the jail's processes and every command started in it) is kept on one CPU
(:func:`jail_cpus`): the one with the fewest of this machine's other pinned jails (counted by their tracers), so
that two agents' jails, or two runs side by side, do not share a CPU while another stays idle.
``SCOPEWATCH_JAIL_CPUS=all`` leaves the placement to the scheduler, for commands that run many processes at
once (``make -j``, ``pytest -n``): on one CPU they get one CPU's worth of time. A command may change its own
affinity; nothing depends on it but speed.
"""

from __future__ import annotations

import itertools
import os

VARIABLE = "SCOPEWATCH_JAIL_CPUS"
TRACER_PREFIX = "strace-"
"""How the name of a jail's tracer begins (:func:`~sandbox.commands.tracer.private_name`)."""
_started = itertools.count()


def wanted() -> str:
    """``all`` when ``SCOPEWATCH_JAIL_CPUS=all`` asks for it, else ``one`` (as ``SCOPEWATCH_JAIL``, only the
    choice that turns the default off is looked for)."""
    return "all" if os.environ.get(VARIABLE, "").strip().lower() == "all" else "one"


def jail_cpus() -> set[int] | None:
    """The CPUs for the next episode's jail: one CPU, or None (no pinning: ``SCOPEWATCH_JAIL_CPUS=all``, or this
    process may run on a single CPU anyway)."""
    if wanted() == "all":
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        return None
    taken = _pinned_jails()
    # Fewest jails first; among equals, turn by turn (and by process, for runs side by side).
    turn = (os.getpid() + next(_started)) % len(allowed)
    order = allowed[turn:] + allowed[:turn]
    return {min(order, key=lambda cpu: taken.get(cpu, 0))}


def _pinned_jails() -> dict[int, int]:
    """CPU -> how many episode jails are on it alone, counted by their tracers (:func:`_tracers`)."""
    counts: dict[int, int] = {}
    for _, cpu in _tracers():
        counts[cpu] = counts.get(cpu, 0) + 1
    return counts


def _tracers() -> list[tuple[int, int]]:
    """(pid, CPU) of each jail's tracer that runs on one CPU alone: strace, which the engine runs under a name of
    its own, ``strace-...`` (:func:`~sandbox.commands.tracer.private_name`). One affinity call per process; only a
    process on one CPU is looked at further (a kernel thread, which has no program, is left out), so a machine's
    many processes cost little."""
    found: list[tuple[int, int]] = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cpus = os.sched_getaffinity(int(name))
            if len(cpus) != 1:
                continue
            os.readlink(f"/proc/{name}/exe")  # a kernel thread has none
            with open(f"/proc/{name}/comm") as f:
                comm = f.read()
        except OSError:
            continue
        if comm.startswith(TRACER_PREFIX):
            found.append((int(name), next(iter(cpus))))
    return found
