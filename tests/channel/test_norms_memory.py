"""``--norm memory=false`` is seed 000 B.2's ablation: true/false name the memory norm's full/off."""

from __future__ import annotations

import pytest

from channel.vocab.norms import NormError, parse_assignments


def test_memory_takes_true_and_false() -> None:
    assert parse_assignments(["memory=false"]).memory == "off"
    assert parse_assignments(["memory=true"]).memory == "full"
    assert parse_assignments(["memory=full"]).memory == "full"


def test_memory_still_refuses_other_words() -> None:
    with pytest.raises(NormError, match="memory"):
        parse_assignments(["memory=sometimes"])
