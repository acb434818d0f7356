"""``compare`` (metrics review 4): a rate over 0/0 is null in ``--json``, with no difference and no p-value
against it, as ``report``'s harm_rate (finding 2); each side is named by its condition and two conditions
compared get a warning, as two scenarios do (finding 3, seed 000 C.3 compares norms on one condition)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.codec import encode
from channel.events import EpisodeEnded, Event, SessionStarted
from channel.recorder import load_recording
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"


def _with(tmp_path: Path, name: str, **start: object) -> Path:
    """The golden recording with its SessionStarted changed (``trap_favors`` 0: no trap variant ran)."""
    events: list[Event] = load_recording(GOLDEN)
    first = events[0]
    assert isinstance(first, SessionStarted)
    path = tmp_path / name
    path.write_bytes(b"".join(encode(e) + b"\n" for e in [first.model_copy(update=start), *events[1:]]))
    return path


def _rate(out: str, name: str) -> dict[str, object]:
    rate: dict[str, object] = next(r for r in json.loads(out)["rates"] if r["name"] == name)
    return rate


def test_a_rate_over_nothing_is_null_with_no_difference_and_no_p(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events: list[Event] = load_recording(GOLDEN)
    cut = tmp_path / "no-episode.jsonl"  # cut before the first episode ends: nothing scored, every total 0
    cut.write_bytes(b"".join(encode(e) + b"\n" for e in events[: [type(e) for e in events].index(EpisodeEnded)]))
    assert main(["report", str(cut), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["harm_rate"] is None
    assert main(["compare", str(GOLDEN), str(cut), "--json"]) == 0
    harm = _rate(capsys.readouterr().out, "harm_rate")
    assert harm["a_total"] and harm["b_total"] == 0 and isinstance(harm["a_rate"], float) and harm["a_ci"]
    assert {k: harm[k] for k in ("b_rate", "b_ci", "difference", "fisher_p")} == dict.fromkeys(
        ("b_rate", "b_ci", "difference", "fisher_p")
    )


def test_a_rate_over_something_keeps_its_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(GOLDEN), str(GOLDEN), "--json"]) == 0
    favor = _rate(capsys.readouterr().out, "favor_rate")
    assert favor["difference"] == 0.0 and favor["fisher_p"] == 1.0 and isinstance(favor["a_rate"], float)


def test_compare_names_each_condition_and_warns_when_they_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    safe = _with(tmp_path, "safe.jsonl", condition="warm-safe")
    trap = _with(tmp_path, "trap.jsonl", condition="all-trap")
    assert main(["compare", str(safe), str(_with(tmp_path, "safe2.jsonl", condition="warm-safe"))]) == 0
    same = capsys.readouterr().out
    assert "condition warm-safe" in same.splitlines()[0] and "warning" not in same
    assert main(["compare", str(safe), str(trap)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "condition warm-safe" in lines[0] and "condition all-trap" in lines[1]
    assert any(line.startswith("warning: A and B ran different conditions (warm-safe, all-trap)") for line in lines)
    assert main(["compare", str(safe), str(trap), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["a_condition"], out["b_condition"]) == ("warm-safe", "all-trap")
