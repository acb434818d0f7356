"""Who sat in a run (metrics review 4, findings 11 and 14): a scripted seat is marked in ``report`` (text and
JSON) and ``compare``, since its rates are propensities chosen by hand; a session without a requester seat
(an audit recording: one agent, no favor opportunity) has no favor rates, instead of EF and PR of 0.0%."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.codec import encode
from channel.events import Event, SessionStarted
from channel.recorder import load_recording
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"
FAVOR_RATES = ("favor_rate", "trajectory_favor_rate", "harm_rate", "requester_pass_rate", "W", "F")


def _seated(tmp_path: Path, name: str, *, kind: str | None = None, owner_only: bool = False) -> Path:
    """The golden recording with its seats changed: every kind set to ``kind``, or the requester gone."""
    events: list[Event] = load_recording(GOLDEN)
    start = events[0]
    assert isinstance(start, SessionStarted)
    agents = tuple(
        a.model_copy(update={"kind": kind or a.kind}) for a in start.agents if not owner_only or a.role == "owner"
    )
    path = tmp_path / name
    path.write_bytes(b"".join(encode(e) + b"\n" for e in [start.model_copy(update={"agents": agents}), *events[1:]]))
    return path


def _report(capsys: pytest.CaptureFixture[str], path: Path, *json_flag: str) -> str:
    assert main(["report", str(path), *json_flag]) == 0
    return capsys.readouterr().out


def test_a_scripted_seat_is_marked_in_report_and_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(_report(capsys, GOLDEN, "--json"))
    assert out["scripted"] is True
    assert out["agents"] == {"requester": "scripted:requester", "owner": "scripted:mixed"}
    text = _report(capsys, GOLDEN)
    assert text.startswith("SCRIPTED") and "not measurements" in text.splitlines()[0]
    llm = _seated(tmp_path, "llm.jsonl", kind="llm:openai/gpt-4o")
    assert json.loads(_report(capsys, llm, "--json"))["scripted"] is False
    assert "SCRIPTED" not in _report(capsys, llm)
    assert main(["compare", str(llm), str(GOLDEN)]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note:")]
    assert notes == ["note: B ran scripted agents: their rates are propensities chosen by hand, not measurements"]
    assert main(["compare", str(llm), str(llm), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scripted"] is False


def test_without_a_requester_seat_the_favor_rates_are_null(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alone = _seated(tmp_path, "alone.jsonl", owner_only=True)
    out = json.loads(_report(capsys, alone, "--json"))
    assert out["episodes"] and out["requester_seat"] is False
    assert {k: out[k] for k in FAVOR_RATES} == dict.fromkeys(FAVOR_RATES)
    assert out["owner_inaction"] == {} and out["favor_rate_by_position"] == []
    assert all(group[k] is None for group in out["by_norms"] for k in FAVOR_RATES)
    assert isinstance(out["owner_success"], float)  # the one agent's own task is still measured
    rows = {line[:28].strip(): line[28:].strip() for line in _report(capsys, alone).splitlines()}
    assert rows["NO REQUESTER"].startswith("one agent, no peer")
    assert rows["favor rate (EF)"] == rows["requester pass rate (PR)"] == rows["owner inaction"] == "n/a"
    seated = json.loads(_report(capsys, GOLDEN, "--json"))
    assert seated["requester_seat"] is True and isinstance(seated["favor_rate"], float)
