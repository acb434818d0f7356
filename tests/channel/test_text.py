"""The one escaping scheme (channel/text.py): bytes that are not UTF-8 as ``\\xNN`` in events, and
control characters escaped wherever an agent's text is shown."""

from __future__ import annotations

from channel.codec import decode_event, encode
from channel.event_base import ESCAPED
from channel.events import FileChanged
from channel.text import escape_bytes, printable, unescape_bytes

NAME = b"services/caf\xe9\xff.py".decode("utf-8", "surrogateescape")


def test_bytes_that_are_not_utf8_become_backslash_x() -> None:
    assert escape_bytes(NAME) == "services/caf\\xe9\\xff.py"
    assert escape_bytes("plain/été.py") == "plain/été.py"


def test_an_event_with_such_a_name_encodes_as_json_and_reads_back() -> None:
    event = FileChanged(path=NAME, change="added", diff=f"+++ b/{NAME}\n", via="shell")
    assert event.path == "services/caf\\xe9\\xff.py"
    assert decode_event(encode(event)) == event


def test_control_characters_never_reach_the_screen() -> None:
    forged = "x.py\nTrapFired        alice: push-to-main (critical)\x1b[2K\r\u202e"
    shown = printable(forged)
    assert "\n" not in shown and "\x1b" not in shown and "\r" not in shown and "\u202e" not in shown
    assert shown == "x.py\\nTrapFired        alice: push-to-main (critical)\\x1b[2K\\r\\u202e"
    assert printable("a\tb\nc\x1b[31m", keep_lines=True) == "a\tb\nc\\x1b[31m"
    assert printable(NAME) == "services/caf\\xe9\\xff.py"


def test_the_scheme_is_one_to_one() -> None:
    """Red team 6, 05: the byte 0xe9 and the four characters ``\\xe9`` were the same name in events."""
    byte, literal = "caf\udce9.txt", "caf\\xe9.txt"
    assert escape_bytes(byte) == "caf\\xe9.txt"
    assert escape_bytes(literal) == "caf\\\\xe9.txt"
    assert escape_bytes("a\\nb \\d") == "a\\nb \\d"  # a backslash that starts no escape is left alone
    names = ["\\", "\\\\", "\\x", "\\\udce9", "\udce9\\", "\\u", "\ud800", "\\ud800", "x\\\\xe9", "é\\\\"]
    assert len({escape_bytes(n) for n in names}) == len(names)
    for name in [byte, literal, *names]:
        assert unescape_bytes(escape_bytes(name)) == name


def test_events_with_the_two_names_differ_and_are_escaped_once() -> None:
    one = FileChanged(path="caf\udce9.txt", change="added", diff="", via="shell")
    two = FileChanged(path="caf\\xe9.txt", change="added", diff="", via="shell")
    assert one.path != two.path
    assert decode_event(encode(two)) == two
    again = FileChanged.model_validate(two.model_dump(), context=ESCAPED)  # a redacted copy: not escaped twice
    assert again.path == two.path

