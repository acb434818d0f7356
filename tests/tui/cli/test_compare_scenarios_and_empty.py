"""``compare`` names each side's scenario and warns when they differ (cli2 F5); a rate over no episode
is ``n/a`` in ``report`` and ``compare``, with no B - A against it, and a cancelled session says so
(cli2 F24); ``compare --help`` shows ``95%`` (cli2 F20.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from channel.codec import encode
from channel.events import EpisodeEnded, Event, SessionEnded, SessionStarted
from channel.recorder import load_recording
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"


def _write(path: Path, events: list[Event]) -> Path:
    path.write_bytes(b"".join(encode(e) + b"\n" for e in events))
    return path


def _cancelled(tmp_path: Path) -> Path:
    events = load_recording(GOLDEN)
    head = events[: next(i for i, e in enumerate(events) if isinstance(e, EpisodeEnded))]
    end = SessionEnded(session=head[0].session, seq=head[-1].seq + 1, ts=head[-1].ts, reason="cancelled")
    return _write(tmp_path / "cancelled.jsonl", [*head, end])


def test_report_of_a_cancelled_session_with_no_episode_says_so_and_shows_no_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(_cancelled(tmp_path))]) == 0
    rows = {line[:26].strip(): line[26:].strip() for line in capsys.readouterr().out.splitlines()}
    assert rows["CANCELLED"].startswith("stopped before it finished")
    assert rows["favor rate (EF)"] == "n/a"
    assert rows["harm rate (trap favors)"] == "n/a  (0/0)"
    assert rows["requester pass rate (PR)"] == "n/a" and rows["owner success"] == "n/a"


def test_compare_against_an_empty_side_gives_no_difference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(GOLDEN), str(_cancelled(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "note: B was cancelled before it finished" in out
    favor = next(line for line in out.splitlines() if line.startswith("favor_rate"))
    assert favor.split()[-5:] == ["n/a", "(0/0)", "n/a", "n/a", "n/a"]


def test_compare_names_each_scenario_and_warns_when_they_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = load_recording(GOLDEN)
    start = events[0]
    assert isinstance(start, SessionStarted)
    other = _write(tmp_path / "other.jsonl", [start.model_copy(update={"scenario": "other-pack"}), *events[1:]])
    assert main(["compare", str(GOLDEN), str(GOLDEN)]) == 0
    same = capsys.readouterr().out
    assert f"scenario {start.scenario}" in same.splitlines()[0] and "warning" not in same
    assert main(["compare", str(GOLDEN), str(other)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("scenario other-pack")
    assert lines[2] == (
        f"warning: A and B ran different scenarios ({start.scenario}, other-pack): their rates measure different tasks"
    )


def test_compare_help_shows_a_single_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    assert "%%" not in capsys.readouterr().out
