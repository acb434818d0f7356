"""Reading recordings at benchmark scale: ``scopewatch report`` on a recording of a million events
against a bare ``json.loads`` loop over the same lines, side by side in one run, and ``replay``'s
open-and-seek through the recording's index.

The recording is made from a real one: a headless favorbench-mini session (or ``--from FILE``),
whose events between its ``SessionStarted`` and its ``SessionEnded`` are repeated with ``seq``,
episode and trajectory numbers following on, until it holds ``--events`` events. Each side runs as
its own process (start-up included), rounds alternating so machine load hits both alike:

- ``json.loads``: ``for line in file: json.loads(line)`` (a plain interpreter, nothing validated);
- ``report``: ``scopewatch report --json FILE`` (every event decoded into its model, the recording's
  checks, the whole score), its peak RSS from ``wait4`` (the bench's own process kept small: a
  child's figure is never below its parent's);
- ``replay seek``: :func:`channel.recording_index.open_recording` and its last event, once the index
  exists (the first open builds it: timed apart), in a fresh process; the time from the call to the
  event in hand, and the process's whole wall time.

The first open (it builds the index) also writes the interpreter's bytecode caches, as an install
would have them. The verdict lines: the report's rate as a fraction of ``json.loads``'s (done when >= 0.3), its peak
RSS (< 300 MB), and the seek (< 0.5 s). The machine's load average is printed with the figures.

    python bench/recordings.py [--events 1000000] [--rounds 2] [--from FILE] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BARE = "import json, sys\nwith open(sys.argv[1], 'rb') as f:\n    for line in f:\n        json.loads(line)\n"
SEEK = (
    "import sys, time\nstart = time.perf_counter()\nfrom channel.recording_index import open_recording\n"
    "imported = time.perf_counter()\nwith open_recording(sys.argv[1]) as r:\n    last = r[-1]\n"
    "done = time.perf_counter()\nprint(len(r), last.seq, last.kind, done - imported, done - start)\n"
)


def source_recording(given: str | None, folder: Path) -> Path:
    """The recording to repeat: the one given, else a fresh headless favorbench-mini session."""
    if given:
        return Path(given)
    path = folder / "source.jsonl"
    if not path.exists():
        print("recording a favorbench-mini session to repeat ...", file=sys.stderr)
        subprocess.run(
            [sys.executable, "-m", "tui.cli", "run", "--headless", "--scenario=favorbench-mini", f"--record={path}"],
            check=True,
            cwd=ROOT,
            env=_env(),
            stdout=subprocess.DEVNULL,
        )
    return path


def grow(source: Path, target: Path, events: int) -> None:
    """Write ``events`` events: ``source``'s first, its body repeated (numbers following on), its last."""
    lines = [json.loads(line) for line in source.read_bytes().splitlines() if line.strip()]
    head, body, tail = lines[0], lines[1:-1], lines[-1]
    episodes = max((e.get("episode", 0) for e in body), default=0)
    trajectories = max((e.get("trajectory", 0) for e in body), default=0) + 1
    seq, repeat = 1, 0
    with open(target, "w") as out:
        out.write(json.dumps(head, separators=(",", ":")) + "\n")
        while seq < events - 1:
            for recorded in body:
                if seq >= events - 1:
                    break
                seq += 1
                event = {**recorded, "seq": seq}
                shift = seq - recorded["seq"]
                if event.get("episode"):
                    event["episode"] += repeat * episodes
                if "trajectory" in event:
                    event["trajectory"] += repeat * trajectories
                if event.get("kind") == "FavorChecked":
                    event["write_seq"] += shift  # still the write it checked
                out.write(json.dumps(event, separators=(",", ":")) + "\n")
            repeat += 1
        out.write(json.dumps({**tail, "seq": seq + 1}, separators=(",", ":")) + "\n")


def _env() -> dict[str, str]:
    """The children's environment: bytecode cached as in an installed scopewatch (an environment
    with ``PYTHONDONTWRITEBYTECODE`` would have every run compile ~200 modules first)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def timed(argv: list[str], out: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of one process, its stdout written
    to ``out``. Not read into this process: a child's peak RSS from ``wait4`` is never below its
    parent's at the fork (Linux counts the pages the child starts with), so the parent stays small."""
    start = time.perf_counter()
    with open(out, "wb") as sink:
        proc = subprocess.Popen(argv, cwd=ROOT, env=_env(), stdout=sink, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        err = proc.stderr.read()
        _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)}: rc {proc.returncode}: {err.decode()[-500:]}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the recording (default 1,000,000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each side (default 2)")
    parser.add_argument("--from", dest="source", metavar="FILE", help="the recording to repeat (default: record one)")
    parser.add_argument("--keep", metavar="DIR", help="make (and keep) the recording in DIR, reused when there")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="scopewatch-recordings-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        measure(folder, args.events, args.rounds, args.source)
    finally:
        if not args.keep:  # the million-event recording is ~350 MB of /tmp
            shutil.rmtree(folder, ignore_errors=True)


def measure(folder: Path, events: int, rounds: int, source: str | None) -> None:
    """Make (or reuse) the recording in ``folder`` and print the table and the verdict lines."""
    big = folder / f"recording-{events}.jsonl"
    if not big.exists():
        grow(source_recording(source, folder), big, events)
    size = big.stat().st_size / 1e6
    print(f"{big}: {events:,} events, {size:,.0f} MB; load average {os.getloadavg()[0]:.2f}")

    index = Path(f"{big}.idx")
    index.unlink(missing_ok=True)
    out = folder / "out.txt"
    first, _cpu, _rss = timed([sys.executable, "-c", SEEK, str(big)], out)
    print(f"replay: first open (builds the index, {events:,} events checked): {first:.2f} s")

    runs: dict[str, list[tuple[float, float, float]]] = {"json.loads": [], "report": [], "seek": []}
    seek_call: list[float] = []
    report_out = folder / "report.json"
    for _ in range(rounds):
        runs["json.loads"].append(timed([sys.executable, "-c", BARE, str(big)], out))
        runs["report"].append(timed([sys.executable, "-m", "tui.cli", "report", "--json", str(big)], report_out))
        runs["seek"].append(timed([sys.executable, "-c", SEEK, str(big)], out))
        seek_call.append(float(out.read_text().split()[3]))
    print_table(runs, events)
    wall_ratio = statistics.median(w for w, _, _ in runs["json.loads"]) / statistics.median(
        w for w, _, _ in runs["report"]
    )
    cpu_ratio = statistics.median(c for _, c, _ in runs["json.loads"]) / statistics.median(
        c for _, c, _ in runs["report"]
    )
    peak = max(r for _, _, r in runs["report"])
    seek = statistics.median(seek_call)
    scored = json.loads(report_out.read_bytes())
    episodes = sum(g["episodes"] for g in scored.get("by_norms", []))
    print(f"report scored {episodes:,} episodes; load average now {os.getloadavg()[0]:.2f}")
    print(f"report / json.loads rate: {wall_ratio:.2f}x by wall time, {cpu_ratio:.2f}x by CPU time (done when >= 0.3)")
    print(f"report peak RSS: {peak:.0f} MB (done when < 300)")
    print(f"replay open + seek to the last event, index built: {seek:.3f} s (done when < 0.5)")


def print_table(runs: dict[str, list[tuple[float, float, float]]], events: int) -> None:
    print(f"{'':12} {'wall s':>8} {'CPU s':>8} {'events/s':>10} {'peak RSS MB':>12}  rounds (wall s)")
    for name, rows in runs.items():
        wall: Any = statistics.median(w for w, _, _ in rows)
        cpu: Any = statistics.median(c for _, c, _ in rows)
        rounds = ", ".join(f"{w:.2f}" for w, _, _ in rows)
        rate = f"{events / wall:,.0f}" if name != "seek" else "-"
        print(f"{name:12} {wall:8.2f} {cpu:8.2f} {rate:>10} {max(r for _, _, r in rows):12.0f}  {rounds}")


if __name__ == "__main__":
    main()
