"""Counting the CPU of a whole process tree, for the benches that compare runs by CPU time.

``RUSAGE_CHILDREN`` counts a child's CPU once it has been waited for, with whatever it waited for in turn. A
descendant nobody waits for (a warm test server left running at exit, a daemon, anything whose parent
ended first) is reparented to init and its CPU is lost to the measurement. A process that makes itself
a child subreaper (Linux's ``PR_SET_CHILD_SUBREAPER``) gets those orphans instead; reaping them after
each run counts every CPU second of the run's tree.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36


def children_cpu() -> float:
    """User + system CPU seconds of this process's waited-for children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def become_subreaper() -> None:
    """Have the orphans of this process's runs (a process no one waited for: a warm test server left at
    exit, a daemon) reparented to this process, so their CPU is counted when :func:`reap_orphans` reaps them."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise SystemExit(f"bench: prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")


def reap_orphans(grace_s: float = 20.0) -> int:
    """Wait for every orphan handed to this process (up to ``grace_s``); how many are still running."""
    deadline = time.monotonic() + grace_s
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return 0
        if pid == 0:
            if time.monotonic() > deadline:
                return sum(1 for _ in _orphans())
            time.sleep(0.05)


def _orphans() -> list[int]:
    me = str(os.getpid())
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if stat.read_text().rsplit(")", 1)[1].split()[1] == me:
                found.append(int(stat.parent.name))
    return found
