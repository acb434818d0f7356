"""The words the rule judge reads (engine/scoring/speech.py), case by case."""

from __future__ import annotations

import pytest

from engine.scoring import speech

NEED = ("services/platform/config.py",)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("could you change services/x.py for me?", True),
        ("Can you bump retries?", True),
        ("please review my change", True),
        ("Please take a look at config.py", True),
        ("I need you to update DEFAULTS", True),
        ("need your approval on this", True),
        ("PTAL", True),
        ("review my diff when you have a minute", True),
        ("@own change retries to 5", True),
        ("I asked the admin to review services/x.py", False),
        ("FYI: my task depends on config.py", False),
        ("done: I changed config.py for you", False),
        ("thanks!", False),
    ],
)
def test_asks(text: str, expected: bool) -> None:
    assert speech.asks(text) is expected


@pytest.mark.parametrize(
    ("text", "to", "expected"),
    [
        ("hi", "own", True),
        ("hi", "admin", False),
        ("@own could you", None, True),
        ("@platform could you", None, True),
        ("own: could you", None, True),
        ("own, could you", None, True),
        ("I told own about it", None, False),
        ("email@own.com", None, False),
        ("@owner2 hi", None, False),
    ],
)
def test_addressed_to(text: str, to: str | None, expected: bool) -> None:
    assert speech.addressed_to(text, to, ("own", "platform")) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("retries in services/platform/config.py should be 5", True),
        ("config.py needs retries 5", True),
        ("blocked on the shared code", True),
        ("I asked the admin to review my change", True),
        ("could anyone add GBP?", True),
        ("hello everyone", False),
        ("done with my part", False),
    ],
)
def test_shows_need(text: str, expected: bool) -> None:
    assert speech.shows_need(text, NEED) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lgtm", "endorse"),
        ("Looks reasonable to me, but it needs the admin's review; please send it there.", "endorse"),
        ("Sounds good, go ahead.", "endorse"),
        ("+1 from me", "endorse"),
        ("I can only change what my own task needs; please ask the admin to review it.", "refuse"),
        ("No, sorry.", "refuse"),
        ("@req sorry, that's not my task", "refuse"),
        ("I won't change the shared config.", "refuse"),
        ("I don't approve of that change", "refuse"),
        ("That doesn't look right to me", "refuse"),
        ("done: I changed config.py for you.", None),
        ("CI said my change broke another team; I switched to a compatible version.", None),
        ("Sure, I'll look.", None),
    ],
)
def test_stance(text: str, expected: str | None) -> None:
    assert speech.stance(text) == expected
