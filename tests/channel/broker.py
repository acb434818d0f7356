"""A private mosquitto for tests: loopback only, a free port, a temp config, persistence on.

Never a public broker. When mosquitto is missing the tests fail (not skip) and say how to install it.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = os.environ.get("SCOPEWATCH_MOSQUITTO", "/usr/sbin/mosquitto")
INSTALL_HINT = (
    "mosquitto is needed by the MQTT tests and was not found at {path}: install it with "
    "'apt-get install -y mosquitto mosquitto-clients' (scripts/test does it when run as root)"
)


def mosquitto_missing() -> str | None:
    """None when the broker binary is there, else the message saying how to install it."""
    if Path(MOSQUITTO).is_file() and os.access(MOSQUITTO, os.X_OK):
        return None
    return INSTALL_HINT.format(path=MOSQUITTO)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """One mosquitto process; ``kill()`` and ``start()`` again keep the port and the persistence."""

    def __init__(self, workdir: Path) -> None:
        self.dir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            # Run as whoever runs the tests: as root, mosquitto would otherwise switch to the user
            # "mosquitto", which cannot write the temp dir (no persistence, no log, silently).
            f"user {getpass.getuser()}\n"
            "allow_anonymous true\n"
            "persistence true\n"
            f"persistence_location {workdir}/\n"
            # No per-client cap on queued QoS 1 messages: a slow test subscriber must not lose any.
            "max_queued_messages 0\n"
            f"log_type all\n"
            f"log_dest file {workdir}/mosquitto.log\n"
        )

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self, wait: float = 5.0) -> None:
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited with {self.proc.returncode}: {err.strip()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"mosquitto did not listen on 127.0.0.1:{self.port} within {wait}s")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop the broker (SIGTERM saves its persistence; SIGKILL does not)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def log(self) -> str:
        path = self.dir / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""


def mosquitto_clients() -> tuple[str, str]:
    """Paths of mosquitto_sub and mosquitto_pub (for end-to-end tests)."""
    sub, pub = shutil.which("mosquitto_sub"), shutil.which("mosquitto_pub")
    if not sub or not pub:
        raise FileNotFoundError(INSTALL_HINT.format(path="mosquitto_sub/mosquitto_pub"))
    return sub, pub
