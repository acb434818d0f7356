"""``compare`` tells two packs of one name apart by their hash (packs5 08): a local ``billing`` edited between two
runs was compared as the same scenario without a word. Recordings without a hash (made before packs were hashed)
compare as before, silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.codec import encode
from channel.events import DomainEntered, Event, SessionStarted
from channel.recorder import load_recording
from engine.fork.course import comparable_pair
from engine.scoring.compare import compare
from engine.scoring.metrics import score
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"
HASH_A, HASH_B = "a" * 64, "b" * 64


def _write(path: Path, events: list[Event]) -> Path:
    path.write_bytes(b"".join(encode(e) + b"\n" for e in events))
    return path


def _hashed(tmp_path: Path, name: str, pack_hash: str) -> Path:
    events = load_recording(GOLDEN)
    start = events[0]
    assert isinstance(start, SessionStarted) and start.pack_hash == ""  # recorded before packs were hashed
    return _write(tmp_path / name, [start.model_copy(update={"pack_hash": pack_hash}), *events[1:]])


def test_one_pack_name_with_two_hashes_is_one_warning_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _hashed(tmp_path, "a.jsonl", HASH_A), _hashed(tmp_path, "b.jsonl", HASH_B)
    scenario = load_recording(GOLDEN)[0].scenario  # type: ignore[attr-defined]
    assert main(["compare", str(a), str(b)]) == 0
    warnings = [line for line in capsys.readouterr().out.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(
        f"warning: A and B ran different packs under the same name: {scenario} (aaaaaaaaaaaa in A, bbbbbbbbbbbb in B)"
    )
    assert main(["compare", str(a), str(b), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["a_packs"] == {scenario: HASH_A} and result["b_packs"] == {scenario: HASH_B}
    assert any("different packs under the same name" in w for w in result["warnings"])


@pytest.mark.parametrize("b_hash", [HASH_A, ""])
def test_the_same_hash_or_none_on_a_side_says_nothing(
    b_hash: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _hashed(tmp_path, "a.jsonl", HASH_A), _hashed(tmp_path, "b.jsonl", b_hash)
    for pair in ((a, b), (b, a), (GOLDEN, GOLDEN)):
        assert main(["compare", str(pair[0]), str(pair[1])]) == 0
        assert "warning" not in capsys.readouterr().out


def test_each_domain_of_a_suite_is_compared_by_its_own_hash() -> None:
    metrics = score(load_recording(GOLDEN))
    a = {"favorbench/iot": HASH_A, "favorbench/crm": HASH_A, "favorbench/clinic": ""}
    b = {"favorbench/iot": HASH_A, "favorbench/crm": HASH_B, "favorbench/clinic": HASH_B}
    warnings = compare(metrics, metrics, a_packs=a, b_packs=b).warnings
    assert len(warnings) == 1 and "favorbench/crm (aaaaaaaaaaaa in A, bbbbbbbbbbbb in B)" in warnings[0]
    assert "iot" not in warnings[0] and "clinic" not in warnings[0]


def test_a_domain_entered_carries_its_packs_hash_to_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = load_recording(GOLDEN)
    start = events[0]
    assert isinstance(start, SessionStarted)

    def recording(name: str, pack_hash: str) -> Path:
        entered = DomainEntered(session=start.session, seq=2, ts=start.ts, scenario="other", pack_hash=pack_hash)
        rest = [e.model_copy(update={"seq": e.seq + 1}) for e in events[1:]]
        return _write(tmp_path / name, [start, entered, *rest])

    assert main(["compare", str(recording("a.jsonl", HASH_A)), str(recording("b.jsonl", HASH_B)), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["a_packs"] == {start.scenario: "", "other": HASH_A}
    assert [w for w in result["warnings"] if "other (aaaaaaaaaaaa in A, bbbbbbbbbbbb in B)" in w]


def test_a_fork_of_a_recording_without_a_hash_does_not_diverge_on_it() -> None:
    """A fork re-runs the pack, so its ``SessionStarted`` has a hash; the parent's, recorded before, has none: unknown,
    not different. A parent with another hash than the re-run's ran another pack."""
    start = load_recording(GOLDEN)[0]
    rerun = start.model_copy(update={"pack_hash": HASH_A})
    place = {start.seq: 0}.get
    theirs, mine = comparable_pair(start, rerun, place, place)
    assert theirs == mine and "pack_hash" not in mine
    theirs, mine = comparable_pair(start.model_copy(update={"pack_hash": HASH_B}), rerun, place, place)
    assert theirs != mine and {theirs["pack_hash"], mine["pack_hash"]} == {HASH_A, HASH_B}
