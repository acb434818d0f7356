"""Scripted replies through the real ``litellm.acompletion`` (its ``mock_response`` /
``mock_tool_calls``): litellm builds the response, usage and cost; nothing leaves the machine."""

from __future__ import annotations

import os
from typing import Any

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

LITELLM_WARNINGS = "ignore:.*the `ReadOnly` qualifier:UserWarning"
"""litellm's first call imports a module whose TypedDict makes pydantic warn; pytest turns
warnings into errors, so tests that call litellm ignore this one."""


def call(name: str, args: str, call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


class MockLitellm:
    """A completion that answers each call with the next scripted (text, tool calls) through
    litellm; an exception in the script is passed as ``mock_response`` (litellm raises it)."""

    def __init__(self, *script: Any) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []

    async def __call__(self, **kwargs: Any) -> Any:
        from engine.llm.client import load_litellm

        litellm = load_litellm()
        # litellm's mocks answer whole (a provider that ignores ``stream``); tests/engine/llm/server.py streams.
        kwargs = {k: v for k, v in kwargs.items() if k not in ("stream", "stream_options")}
        self.requests.append(kwargs)
        item = self.script.pop(0) if self.script else ("", [call("finish", '{"summary": "script over"}', "end")])
        if isinstance(item, BaseException):
            return await litellm.acompletion(**kwargs, mock_response=item)
        text, calls = item
        return await litellm.acompletion(**kwargs, mock_response=text, mock_tool_calls=calls or None)
