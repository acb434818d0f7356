"""The shared vocabulary (channel/vocab/): one definition of each word, at the bottom."""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, get_args, get_origin

import pytest
from pydantic import BaseModel

from channel.commands import Command
from channel.events import Event
from channel.vocab.atoms import NAMED_ATOMS
from channel.vocab.edit import Edit, EditError, apply_edits, replace_once
from channel.vocab.risk import RISK_ORDER, Risk, at_least, highest
from channel.vocab.tools import AUDIT_TOOLS, SESSION_TOOLS, TOOL_SPECS, RequestReview, ToolError, parse_args
from sandbox.commands.atoms import default_registry

ROOT = Path(__file__).resolve().parents[2]

TYPED = ("norms", "traps", "success", "authorised", "tool", "args", "edits", "config", "value", "old", "new")
"""Field names that carry norms, traps, tools, edits or config (and a norm's value)."""


def _members(union: Any) -> list[type[BaseModel]]:
    inner = get_args(union)[0] if get_origin(union) is typing.Annotated else union
    return list(get_args(inner))


def _loose(annotation: Any) -> bool:
    """Whether an annotation is Any, or a dict / tuple / list / union with Any somewhere inside."""
    if annotation is Any:
        return True
    return any(_loose(arg) for arg in get_args(annotation) if arg is not Ellipsis)


@pytest.mark.parametrize("union", [Event, Command], ids=["events", "commands"])
def test_no_message_field_carries_untyped_norms_traps_tools_edits_or_config(union: Any) -> None:
    loose = [
        f"{model.__name__}.{name}: {field.annotation}"
        for model in _members(union)
        for name, field in model.model_fields.items()
        if name in TYPED and _loose(field.annotation)
    ]
    assert loose == []
    assert len(_members(union)) > (30 if union is Event else 5)  # the walk saw the whole union


def test_the_walk_would_catch_a_dict_of_any() -> None:
    assert _loose(dict[str, Any]) and _loose(tuple[dict[str, Any], ...]) and _loose(Any)
    assert not _loose(dict[str, str]) and not _loose(tuple[Edit, ...])


def test_the_vocabulary_imports_nothing_above_channel() -> None:
    code = (
        "import sys, channel.vocab, channel.vocab.tools, channel.vocab.norms, channel.vocab.config, "
        "channel.vocab.predicates, channel.vocab.recorded, channel.vocab.topics;"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'engine', 'sandbox', 'scenarios', 'tui', 'textual'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_one_edit_rule() -> None:
    assert replace_once("a = 1\nb = 1\n", "a = 1", "a = 2") == "a = 2\nb = 1\n"
    assert replace_once(None, "", "new file\n") == "new file\n"
    with pytest.raises(EditError, match="found 2 times"):
        replace_once("x x", "x", "y")
    with pytest.raises(EditError, match="found 0 times"):
        replace_once("x", "z", "y")
    with pytest.raises(EditError, match="already exists"):
        replace_once("x", "", "y")
    with pytest.raises(EditError, match=r"edit 1 \(a\): no such file"):
        apply_edits({}, [Edit(path="b", new="1"), Edit(path="a", old="2", new="3")])


def test_the_risk_order_is_one_order() -> None:
    assert list(RISK_ORDER) == list(get_args(Risk)) == ["low", "medium", "high", "critical"]
    assert highest(["medium", "critical", "low"]) == "critical" and highest([]) is None
    assert at_least("high", "medium") and not at_least("low", "medium") and not at_least(None, "low")
    assert at_least(None, None)


def test_every_atom_code_names_is_in_the_registry() -> None:
    defined = {a.name for a in default_registry().atom}
    assert NAMED_ATOMS <= defined


def test_tool_schemas_are_generated_from_the_models() -> None:
    specs = {spec["name"]: spec for spec in TOOL_SPECS}
    assert list(specs) == [tool.name for tool in SESSION_TOOLS]
    review = specs["request_review"]["parameters"]
    assert review["required"] == ["to", "edits"]
    assert review["properties"]["edits"]["items"]["required"] == ["path", "new"]
    assert "$defs" not in str(review) and "title" not in str(specs)
    intent = specs["post_message"]["parameters"]["properties"]["intent"]
    assert intent["enum"] == ["request", "endorse", "refuse", "info"]
    assert {tool.name for tool in AUDIT_TOOLS} >= {"ask_user", "finish", "run_shell"}


def test_tool_calls_are_validated_by_pydantic_in_one_line() -> None:
    parsed = parse_args(SESSION_TOOLS, "request_review", {"to": "admin", "edits": [{"path": "a", "new": 1}], "x": 1})
    assert isinstance(parsed, RequestReview) and parsed.edits == (Edit(path="a", new="1"),)  # numbers as text
    assert parse_args(SESSION_TOOLS, "post_message", {"text": "hi", "intent": "shout"}).intent == "info"  # type: ignore[attr-defined]
    with pytest.raises(ToolError, match="write_file needs path, content"):
        parse_args(SESSION_TOOLS, "write_file", {"path": None})
    with pytest.raises(ToolError, match=r"bad arguments for request_review: edits: .*at least 1"):
        parse_args(SESSION_TOOLS, "request_review", {"to": "admin", "edits": []})
    with pytest.raises(ToolError, match="unknown tool 'ask_user'"):
        parse_args(SESSION_TOOLS, "ask_user", {"question": "?"})


def test_recorded_config_keeps_its_json_and_never_the_secret() -> None:
    from channel.codec import decode, encode
    from channel.events import SessionStarted
    from channel.vocab.config import SessionConfig

    old = SessionStarted(session="s", seq=1, scenario="p")
    assert old.config is None and b'"config":{}' in encode(old)
    assert decode(encode(old)) == old  # a recording from before configs were recorded
    ran = SessionStarted(session="s", seq=1, scenario="p", config=SessionConfig(seed=4, reviewer_secret="hush"))
    assert b"hush" not in encode(ran) and b"reviewer_secret" not in encode(ran)
    back = decode(encode(ran))
    assert isinstance(back, SessionStarted) and back.config == SessionConfig(seed=4)
