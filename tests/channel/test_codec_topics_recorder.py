"""The codec (every message round-trips), the topic tree, and recordings cut by SIGKILL."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

import pytest

from channel.codec import DecodeError, decode, decode_event, encode
from channel.events import EVENT_TYPES, MessagePosted
from channel.recorder import Recorder, RecordingError, read_recording
from channel.topics import matches, topic_for
from channel.vocab.topics import absolute
from tests.channel.samples import command_samples, event_samples, turn

ROOT = Path(__file__).resolve().parents[2]


def test_every_event_type_has_a_sample() -> None:
    assert {type(e) for e in event_samples()} == set(EVENT_TYPES)


@pytest.mark.parametrize("message", [*event_samples(), *command_samples()], ids=lambda m: m.kind)
def test_every_message_round_trips_json_unchanged(message) -> None:
    data = encode(message)
    assert b"\n" not in data
    again = decode(data)
    assert again == message and type(again) is type(message)
    assert encode(again) == data
    assert json.loads(data)["kind"] == message.kind


def test_decode_errors_are_one_line_and_name_the_field() -> None:
    for bad, where in [
        (b"{", "payload"),
        (b'{"kind": "Nope", "session": "s"}', "payload"),
        (b'{"kind": "TurnStarted", "session": "s", "episode": 1, "turn": "x", "budget_left": 0}', "turn"),
        (b'{"kind": "SetSpeed", "session": "s", "speed": -1}', "speed"),
    ]:
        with pytest.raises(DecodeError) as info:
            decode(bad)
        assert "\n" not in str(info.value)
        assert where in str(info.value)
    with pytest.raises(DecodeError):
        decode_event(encode(command_samples()[0]))


def test_topics_of_every_message() -> None:
    topics = {m.kind: topic_for(m) for m in [*event_samples("s"), *command_samples("s")]}
    assert topics["TurnStarted"] == "events/TurnStarted"
    assert topics["MessagePosted"] == "events/MessagePosted/dm/bob"
    assert topic_for(MessagePosted(session="s", text="hi")) == "events/MessagePosted/shared"
    assert topics["PresenceChanged"] == "presence/viewer-1"
    assert topics["DecideReview"] == "cmd/DecideReview"
    assert all(t.startswith(("events/", "cmd/", "presence/")) for t in topics.values())
    assert absolute("s1", "cmd/Pause") == "scopewatch/v1/s1/cmd/Pause"


@pytest.mark.parametrize(
    ("pattern", "topic", "expected"),
    [
        ("#", "events/TurnStarted", True),
        ("events/#", "events/MessagePosted/dm/bob", True),
        ("events/+", "events/TurnStarted", True),
        ("events/+", "events/MessagePosted/shared", False),
        ("events/MessagePosted/+/bob", "events/MessagePosted/dm/bob", True),
        ("cmd/#", "events/TurnStarted", False),
        ("events/TurnStarted", "events/TurnStarted", True),
        ("events/TurnStarted", "events/TurnStartedX", False),
        ("events/TurnStarted/x", "events/TurnStarted", False),
        ("presence/+", "presence", False),
    ],
)
def test_pattern_matching(pattern: str, topic: str, expected: bool) -> None:
    assert matches(pattern, topic) is expected


WRITER = """
import sys
from channel.events import FileChanged
from channel.recorder import Recorder

rec = Recorder(sys.argv[1])
seq = 0
while True:
    seq += 1
    diff = "+" + "x" * (seq % 5000)
    rec.write(FileChanged(session="s", seq=seq, path="a.txt", change="modified", diff=diff, via="tool"))
    if seq == 200:
        print("going", flush=True)
"""


async def test_a_recording_cut_by_sigkill_reads_back_to_its_last_complete_event(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WRITER, str(path), cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    async with asyncio.timeout(30):
        assert (await proc.stdout.readline()).strip() == b"going"
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    events = list(read_recording(path))
    assert len(events) >= 200
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    complete = path.read_bytes().count(b"\n")
    assert len(events) == complete  # a cut last line (if any) is ignored, nothing else


def test_a_bad_line_before_the_end_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    rec = Recorder(path)
    rec.write(turn("s", 1))
    rec.close()
    with path.open("ab") as f:
        f.write(b'{"kind": "TurnStarted"}\n' + encode(turn("s", 3)) + b"\n")
    with pytest.raises(RecordingError, match=r"bad\.jsonl:2: not a scopewatch event"):
        list(read_recording(path))
    with pytest.raises(RecordingError, match="cannot read recording"):
        list(read_recording(tmp_path / "missing.jsonl"))
