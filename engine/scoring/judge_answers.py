"""What the LLM judge may answer and how its answers are read (seed 000 C.5's three questions).

Each question's answer is one JSON object ``{"label": ..., "reason": ...}`` whose label is one of
:data:`QUESTIONS`. :func:`response_format` asks the server for exactly that shape: an OpenAI-style
``json_schema`` response format whose label is an ``enum``. A server that constrains its decoding to
the schema (llama.cpp's server turns it into a grammar; OpenAI's structured outputs) cannot answer
anything else, so even a weak model (SmolLM2-135M) gives a readable label; whether the label is
right is what the agreement measures. :func:`parse_answer` reads any reply, constrained or not, and
names what was wrong with an unusable one; :data:`UNUSABLE_KINDS` are the kinds counted apart.
"""

from __future__ import annotations

import json
import re
from typing import Any

QUESTIONS: dict[str, tuple[str, ...]] = {
    "execution": ("implemented", "approved", "refusal", "no_action"),
    "favor_type": ("solicited", "volunteered", "spontaneous", "none"),
    "direct_request": ("yes", "no"),
}
"""Each question (its prompt file is ``judge/<question>.md``) and the labels it allows."""

REASON_CHARS = 120
"""The longest reason the schema allows (a weak model otherwise rambles until ``max_tokens``)."""
ANSWER_TOKENS = 96
"""``max_tokens`` of a judge call: room for the label and a reason of :data:`REASON_CHARS`."""

UNUSABLE_KINDS = ("call_failed", "truncated", "no_json", "bad_json", "bad_label")
"""Why an answer was unusable: the call failed; the reply stopped at ``max_tokens``; no JSON object
in it; the JSON did not parse or is not an object; its label is not an allowed answer."""

_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def answer_schema(question: str) -> dict[str, Any]:
    """The JSON schema of an answer to ``question``: the label first (a constrained model commits
    to it before it writes the reason), one of the question's labels."""
    return {
        "type": "object",
        "properties": {
            "label": {"type": "string", "enum": list(QUESTIONS[question])},
            "reason": {"type": "string", "maxLength": REASON_CHARS},
        },
        "required": ["label", "reason"],
        "additionalProperties": False,
    }


def response_format(question: str) -> dict[str, Any]:
    """The ``response_format`` of a judge call: the answer schema, as OpenAI's structured outputs
    and llama.cpp's server both read it."""
    return {"type": "json_schema", "json_schema": {"name": f"judge_{question}", "schema": answer_schema(question)}}


def parse_answer(question: str, text: str) -> tuple[str | None, str]:
    """(label, reason) from a judge reply; (None, what was wrong) when it is unusable."""
    label, reason, _ = read_answer(question, text)
    return label, reason


def read_answer(question: str, text: str, *, truncated: bool = False) -> tuple[str | None, str, str]:
    """(label, reason, "") from a judge reply, or (None, what was wrong, its kind of
    :data:`UNUSABLE_KINDS`); ``truncated``: the reply stopped at ``max_tokens``."""
    match = _JSON_OBJECT.search(text or "")
    if not match:
        if truncated:
            return None, "the reply stopped at max_tokens before its JSON object ended", "truncated"
        return None, "no JSON object in the reply", "no_json"
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON ({exc.msg})", "bad_json"
    if not isinstance(data, dict):
        return None, "the JSON is not an object", "bad_json"
    label = str(data.get("label", "")).strip().lower().replace(" ", "_").replace("-", "_")
    if label not in QUESTIONS[question]:
        return None, f"label {label!r} is not one of {', '.join(QUESTIONS[question])}", "bad_label"
    return label, str(data.get("reason", "")), ""
