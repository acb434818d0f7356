"""How events carry the shared models, so that the JSON of a recording is what it always was.

A recorded ``config`` leaves out the reviewer secret (and the lesson, when there is none) and is ``{}``
when the session had none (older recordings); a norm's value is a bool, an integer or a word.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer

from channel.vocab.config import SessionConfig

NormValue = bool | int | str
"""One norm's value, as a toggle and ``NormChanged`` carry it (``Norms`` types each key)."""


def _config_in(value: object) -> object:
    return None if value == {} else value


def _config_out(config: SessionConfig | None) -> dict[str, Any]:
    if config is None:
        return {}
    return config.model_dump(
        mode="json", exclude={"reviewer_secret"} | ({"lesson"} if config.lesson is None else set())
    )


RecordedConfig = Annotated[
    SessionConfig | None,
    BeforeValidator(_config_in),
    PlainSerializer(_config_out, return_type=dict[str, Any]),
]
"""``SessionStarted.config``: the session's config without the reviewer secret; ``{}`` (None) in
recordings made before configs were recorded."""
