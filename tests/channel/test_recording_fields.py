"""A line missing a field every recording has carried is refused, naming the field (cli2 F1): a
default there scored wrong numbers silently (``EpisodeEnded.passed`` missing: no test passed). Fields
added after their kind (:mod:`channel.event_history`) are still read with their default: recordings
from older versions lack them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from channel.codec import DecodeError, decode_event, decode_newer, encode
from channel.event_base import NewerEvent
from channel.event_history import ADDED_LATER
from channel.recorder import RecordingError, load_recording
from channel.recording_files import RecordingWarning
from tests.channel.samples import event_samples
from tui.cli import main


def _without(line: bytes, field: str) -> bytes:
    data = json.loads(line)
    del data[field]
    return json.dumps(data).encode()


def test_every_field_is_required_on_the_wire_unless_older_recordings_lack_it() -> None:
    for event in event_samples():
        line = encode(event)
        for field in json.loads(line):
            if field == "kind":
                continue
            if field in ADDED_LATER.get(event.kind, frozenset()):
                decoded = decode_event(_without(line, field))
                assert getattr(decoded, field) == type(event).model_fields[field].get_default(call_default_factory=True)
            else:
                with pytest.raises(DecodeError, match=rf"^{event.kind}\.{field}: Field required"):
                    decode_event(_without(line, field))


@pytest.mark.parametrize(
    ("kind", "field"),
    [("EpisodeEnded", "passed"), ("FavorChecked", "actor"), ("FileChanged", "actor"), ("HarmDetected", "stage")],
)
def test_a_recording_missing_a_scored_field_is_refused_naming_line_and_field(
    kind: str, field: str, tmp_path: Path
) -> None:
    events = event_samples()
    lines = [encode(e.model_copy(update={"seq": n})) for n, e in enumerate(events, 1)]
    number = next(n for n, e in enumerate(events, 1) if e.kind == kind)
    lines[number - 1] = _without(lines[number - 1], field)
    path = tmp_path / "edited.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    refused = rf"edited\.jsonl:{number}: not a scopewatch event \({kind}\.{field}: Field required"
    with pytest.raises(RecordingError, match=refused):
        load_recording(path)


def test_every_listed_field_exists() -> None:
    kinds = {e.kind: type(e) for e in event_samples()}
    for kind, fields in ADDED_LATER.items():
        assert fields <= set(kinds[kind].model_fields), kind


def _recording(tmp_path: Path, edit: dict[int, bytes]) -> Path:
    events = event_samples()
    lines = [encode(e.model_copy(update={"seq": n})) for n, e in enumerate(events, 1)]
    for number, line in edit.items():
        lines[number - 1] = line
    path = tmp_path / "newer.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_a_newer_writers_extra_field_and_unknown_kind_are_read_past_with_one_warning(tmp_path: Path) -> None:
    events = event_samples()
    extra = json.loads(encode(events[4].model_copy(update={"seq": 5})))
    extra["new_field_v2"] = 1
    unknown = {"session": events[0].session, "seq": 7, "ts": 1.0, "actor": "engine", "kind": "FutureThing", "x": 2}
    path = _recording(tmp_path, {5: json.dumps(extra).encode(), 7: json.dumps(unknown).encode()})
    with pytest.warns(RecordingWarning) as caught:
        read = load_recording(path)
    assert len(caught) == 1
    assert re.fullmatch(r".*newer\.jsonl:5: 2 line\(s\) .* \(written by a newer scopewatch\?\)", str(caught[0].message))
    assert [e.seq for e in read] == list(range(1, len(events) + 1))
    assert read[4] == events[4].model_copy(update={"seq": 5})
    assert isinstance(read[6], NewerEvent) and read[6].newer_kind == "FutureThing"


def test_a_missing_or_wrong_field_beside_an_extra_one_is_still_refused(tmp_path: Path) -> None:
    ended = next(e for e in event_samples() if e.kind == "EpisodeEnded")
    data = json.loads(encode(ended))
    data["new_field_v2"] = 1
    data["passed"] = "yes"
    with pytest.raises(DecodeError):
        decode_event(json.dumps(data))
    assert decode_newer(json.dumps(data)) is None


def test_an_unknown_kind_is_named_in_a_short_message() -> None:
    with pytest.raises(DecodeError) as caught:
        decode_event(b'{"kind": "FutureThing"}')
    assert str(caught.value) == "payload: unknown kind 'FutureThing'"


def test_the_command_line_prints_the_warning_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unknown = {"session": event_samples()[0].session, "seq": 7, "ts": 1.0, "actor": "engine", "kind": "FutureThing"}
    path = _recording(tmp_path, {7: json.dumps(unknown).encode()})
    assert main(["report", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if "newer" in line] == [
        f"scopewatch: warning: {path}:7: 1 line(s) with event kinds or fields this scopewatch does not know read past "
        "(written by a newer scopewatch?)"
    ]


def test_a_byte_order_mark_at_the_start_is_read_past_and_indexed(tmp_path: Path) -> None:
    from channel.recording_index import open_recording

    events = event_samples()
    lines = [encode(e.model_copy(update={"seq": n})) for n, e in enumerate(events, 1)]
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")
    assert [e.seq for e in load_recording(path)] == list(range(1, len(events) + 1))
    with open_recording(path) as indexed:
        assert indexed[0].seq == 1 and indexed[len(events) - 1].seq == len(events)


def test_a_missing_seq_or_session_is_named(tmp_path: Path) -> None:
    for field in ("seq", "session"):
        lines = [encode(e.model_copy(update={"seq": n})) for n, e in enumerate(event_samples(), 1)]
        lines[3] = _without(lines[3], field)
        path = tmp_path / f"no-{field}.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        with pytest.raises(RecordingError, match=rf"no-{field}\.jsonl:4: not a scopewatch event \(\w+\.{field}: Field"):
            load_recording(path)


def test_a_field_added_to_an_event_is_a_decision_about_older_recordings() -> None:
    """``tests/data/event_fields.json`` pins every event's fields. A field added since is either in
    :data:`channel.event_history.ADDED_LATER` (older recordings lack it: read with its default) or the pin is
    updated knowingly (then a line without it is refused); adding a field silently would refuse every older
    recording of that kind."""
    pinned = json.loads((Path(__file__).parents[1] / "data" / "event_fields.json").read_text())
    for event in event_samples():
        new = set(type(event).model_fields) - set(pinned.get(event.kind, ()))
        unlisted = new - ADDED_LATER.get(event.kind, frozenset())
        assert not unlisted, (
            f"{event.kind} gained {sorted(unlisted)}: list them in channel/event_history.ADDED_LATER (older "
            "recordings lack them) and in tests/data/event_fields.json"
        )
