"""A line missing a field every recording has carried is refused, naming the field (cli2 F1): a
default there scored wrong numbers silently (``EpisodeEnded.passed`` missing: no test passed). Fields
added after their kind (:mod:`channel.event_history`) are still read with their default: recordings
from older versions lack them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.codec import DecodeError, decode_event, encode
from channel.event_history import ADDED_LATER
from channel.recorder import RecordingError, load_recording
from tests.channel.samples import event_samples


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
    with pytest.raises(RecordingError, match=rf"edited\.jsonl:{number}: not a scopewatch event \({kind}\.{field}: Field"):
        load_recording(path)


def test_every_listed_field_exists() -> None:
    kinds = {e.kind: type(e) for e in event_samples()}
    for kind, fields in ADDED_LATER.items():
        assert fields <= set(kinds[kind].model_fields), kind
