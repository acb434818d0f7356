"""``scopewatch replay FORK --parent PARENT`` at benchmark scale: the split view's peak RSS on a big
recording and its fork, this checkout against a baseline checkout (``--baseline DIR``: e.g. a git
worktree of the commit before), side by side in one run, rounds alternating.

The parent is grown from a real recording as bench/recordings.py grows one (``--events``); the fork
is made from it, since a fork of a grown recording cannot be re-run: a ``Forked`` header naming the
parent's content hash and ``--at``, then the parent's events (seqs one on, another session id), with
the fork's own ``NormChanged`` at the first round boundary after the fork point and the first
``MessagePosted`` after it changed (the first difference). Each side runs in a fresh process: the
split view opened as the CLI opens it (``tui.cli.replay.open_split``), played on a Pilot to its end
(every row shown once), then quit; its wall time and peak RSS (``wait4``) are printed. The first run
makes the two recordings and stops (making them grows this process): run it again to measure.

    python bench/split_view.py --baseline DIR [--events 100000] [--at 2000] [--rounds 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.recordings import grow, source_recording, timed  # noqa: E402

PLAY = (
    "import asyncio, sys\nfrom tui.split import SplitApp\nfrom tui.cli.replay import open_split\n"
    "def drive(app):\n    async def play():\n        async with app.run_test(size=(160, 48)) as pilot:\n"
    "            await pilot.press('space', 'end')\n            await pilot.pause()\n"
    "            print(app.status.render())\n    asyncio.run(play())\n"
    "SplitApp.run = drive\nopen_split(sys.argv[1], sys.argv[2], 'scopewatch-dark')\n"
)


def make_fork(parent: Path, fork: Path, at: int) -> None:
    """A fork of ``parent`` after seq ``at`` with admin_only on (see the module docstring), written a
    line at a time: this process stays small (a child's peak RSS from ``wait4`` is never below its
    parent's at the fork)."""
    from channel.recording_files import content_hash

    changed = differed = False
    with open(parent, "rb") as source, open(fork, "w") as out:
        seq = 1
        for line in source:
            if not line.strip():
                continue
            event = json.loads(line)
            if seq == 1:
                header = {
                    "session": "s-benchfork", "seq": 1, "ts": event["ts"], "actor": "engine", "kind": "Forked",
                    "parent": content_hash(parent), "parent_session": event["session"], "at": at,
                    "norms": {"admin_only": True}, "agents": {},
                }  # fmt: skip
                out.write(json.dumps(header, separators=(",", ":")) + "\n")
            if not changed and event["seq"] > at and event["kind"] == "TurnStarted":
                seq += 1
                change = {**event, "session": "s-benchfork", "seq": seq, "kind": "NormChanged", "actor": "fork",
                          "key": "admin_only", "old": False, "new": True, "norms": {"admin_only": True}}  # fmt: skip
                for key in ("episode", "turn", "budget_left"):
                    del change[key]
                out.write(json.dumps(change, separators=(",", ":")) + "\n")
                changed = True
            seq += 1
            copy = {**event, "session": "s-benchfork", "seq": seq}
            if copy.get("kind") == "FavorChecked":
                copy["write_seq"] += seq - event["seq"]
            if changed and not differed and copy["kind"] == "MessagePosted":
                copy["text"] = "(the fork asked the admin instead)"
                differed = True
            out.write(json.dumps(copy, separators=(",", ":")) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="DIR", required=True, help="the checkout to compare with")
    parser.add_argument("--events", type=int, default=100_000, help="events in the parent (default 100,000)")
    parser.add_argument("--at", type=int, default=2_000, help="the fork point (default seq 2,000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each side (default 2)")
    parser.add_argument("--from", dest="source", metavar="FILE", help="the recording to grow (default: record one)")
    parser.add_argument("--keep", metavar="DIR", help="make (and keep) the recordings in DIR, reused when there")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="scopewatch-split-"))
    folder.mkdir(parents=True, exist_ok=True)
    parent, fork = folder / f"parent-{args.events}.jsonl", folder / f"fork-{args.events}-at{args.at}.jsonl"
    if not parent.exists() or not fork.exists():  # made once, then reused: start the bench again to measure
        grow(source_recording(args.source, folder), parent, args.events)
        make_fork(parent, fork, args.at)
        raise SystemExit(f"made {parent} and {fork}: run the bench again (this process grew making them)")
    size = (parent.stat().st_size + fork.stat().st_size) / 1e6
    print(f"{parent.name} + {fork.name}: {size:,.0f} MB; load average {os.getloadavg()[0]:.2f}")
    sides = {"baseline": Path(args.baseline).resolve(), "this": ROOT}
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, root in sides.items():
            code = f"import sys; sys.path.insert(0, {str(root)!r})\n{PLAY}"
            argv = [sys.executable, "-c", code, str(parent), str(fork)]
            runs[name].append(timed(argv, folder / f"{name}.out"))
            print(f"  {name}: {runs[name][-1][0]:.1f} s, {runs[name][-1][2]:.0f} MB; "
                  f"{(folder / f'{name}.out').read_text().strip()}")  # fmt: skip
    for name, rows in runs.items():
        wall = statistics.median(r[0] for r in rows)
        rss = statistics.median(r[2] for r in rows)
        print(f"{name:>9}: replay --parent played to its end: {wall:.1f} s wall, peak RSS {rss:.0f} MB (median)")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
