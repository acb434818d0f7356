"""The answerers of the episode jails' folder opens (:mod:`sandbox.commands._answerer`): one process per CPU that
jails are put on (:mod:`sandbox.jail.cpus`; one more for jails on every CPU), started with the first jail there
and kept for the engine's life, so a jail's start costs no Python start of its own (~13 ms of CPU; a benchmark run
starts hundreds of jails). Each new jail's listener is handed to the answerer of its CPU (:func:`hand_over`).

An answerer ends when the engine does: it holds one end of a socket whose other end only the engine holds, and
ends when that closes. One that ended otherwise is started again for the next jail; the jails it served end at
their next command (:meth:`~sandbox.commands.episode.EpisodeJail.run`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

_SCRIPT = Path(__file__).with_name("_answerer.py")


@dataclass
class Answerer:
    """One answerer process and the engine's end of its socket."""

    proc: subprocess.Popen[bytes]
    control: socket.socket

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None


_lock = threading.Lock()
_running: dict[frozenset[int] | None, Answerer] = {}
_owner = 0
"""The process :data:`_running` belongs to (a forked child starts its own)."""


def hand_over(listener: int, cpus: set[int] | None) -> Answerer | None:
    """Give ``listener`` (closed here) to the answerer of the jails on ``cpus`` (None: on every CPU), started if
    there is none yet or it has ended; None when none could take it."""
    global _owner
    try:
        with _lock:
            if _owner != os.getpid():
                _running.clear()  # the parent's: not this process's children
                _owner = os.getpid()
            key = frozenset(cpus) if cpus else None
            answerer = _running.get(key)
            if answerer is None or not answerer.alive:
                if answerer is not None:
                    answerer.control.close()  # its process has ended (and been reaped by poll)
                answerer = _start(cpus)
                if answerer is None:
                    return None
                _running[key] = answerer
            try:
                socket.send_fds(answerer.control, [b"l"], [listener])
            except OSError:
                return None
            return answerer
    finally:
        os.close(listener)


def _start(cpus: set[int] | None) -> Answerer | None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)

    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, cpus)

    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", str(_SCRIPT), str(theirs.fileno())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),),
            start_new_session=True,  # a terminal's Ctrl-C is the engine's to handle
            preexec_fn=pin,
        )
    except OSError:
        ours.close()
        return None
    finally:
        theirs.close()
    return Answerer(proc, ours)


def pids() -> list[int]:
    """The answerers running for this process (their CPU is the jails' cost too: ``bench/sandbox_overhead.py``)."""
    with _lock:
        return [a.proc.pid for a in _running.values() if _owner == os.getpid() and a.alive]
