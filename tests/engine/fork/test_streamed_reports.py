"""``report --html`` and ``report FORK --parent PARENT`` read their recordings in streamed passes, as plain
``report`` does, never whole (records5 finding 4: 644 / 665 MB on a 156 MB recording that ``report`` reads in
75 MB); what they print is what the whole-recording functions give."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from channel.recorder import load_recording, stream_recording
from channel.recording_files import recording_hashes
from channel.vocab.config import SessionConfig
from engine.export.html_report import html_report
from engine.fork.compare import compare_fork
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session
from tui.cli import main
from tui.cli import report as report_cli

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"


@pytest.fixture(scope="module")
def parent_and_fork(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("streamed")
    parent, fork = folder / "parent.jsonl", folder / "fork.jsonl"
    asyncio.run(run_session(SessionConfig(seed=13, tasks=("t1-dates", "t2-retries")), record=str(parent)))
    plan = plan_fork(parent, 40, norms={"admin_only": "true"})
    asyncio.run(run_session(plan.config, record=str(fork), fork=plan))
    return parent, fork


@pytest.fixture
def nothing_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> None:
        raise AssertionError("a whole recording was loaded")

    monkeypatch.setattr("channel.recorder.load_recording", refuse)
    monkeypatch.setattr(report_cli, "load_recording", refuse)


@pytest.mark.usefixtures("nothing_whole")
def test_report_html_streams_and_writes_the_same_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(GOLDEN), "--html", str(out)]) == 0
    capsys.readouterr()
    events = list(stream_recording(GOLDEN))
    assert out.read_text(encoding="utf-8") == html_report(events, source=GOLDEN.name)


def test_report_parent_streams_and_compares_as_before(
    parent_and_fork: tuple[Path, Path], nothing_whole: None, capsys: pytest.CaptureFixture[str]
) -> None:
    parent, fork = parent_and_fork
    assert main(["report", str(fork), "--parent", str(parent), "--json"]) == 0
    streamed = json.loads(capsys.readouterr().out)
    assert streamed["at"] == 40


def test_streamed_and_held_comparisons_agree(parent_and_fork: tuple[Path, Path]) -> None:
    parent, fork = parent_and_fork
    hashes = recording_hashes(parent)
    held = compare_fork(load_recording(parent), load_recording(fork), parent_hash=hashes)
    streamed = compare_fork(lambda: stream_recording(parent), lambda: stream_recording(fork), parent_hash=hashes)
    assert streamed == held and held.first_difference is not None
