"""API keys: checked before a run starts, and kept out of everything a session produces.

Keys come from the environment, as litellm expects (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ...).
:func:`check_model_credentials` fails fast with one line naming the missing variable.
:func:`redact` removes every secret-looking environment value (and common key shapes) from text
before it is emitted, so no key reaches an event, a recording or the screen; :func:`scrubbed_env`
is the environment a workspace shell may see (secrets removed).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from channel.errors import ScopewatchError
from channel.event_base import ESCAPED
from channel.events import BaseEvent

SECRET_NAME = re.compile(r"(API_?KEY|_KEY$|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|_AUTH$)", re.IGNORECASE)
"""Environment variable names whose values are treated as secrets."""

KEY_SHAPES = re.compile(
    r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}"  # OpenAI, Anthropic
    r"|AIza[0-9A-Za-z_\-]{30,}"  # Google
    r"|gh[pousr]_[A-Za-z0-9]{30,}"  # GitHub
    r"|xox[abprs]-[A-Za-z0-9\-]{10,}"  # Slack
    r"|hf_[A-Za-z0-9]{30,}"  # Hugging Face
    r"|gsk_[A-Za-z0-9]{30,}"  # Groq
    r"|AKIA[0-9A-Z]{16})"  # AWS access key id
)
"""Well-known key formats, redacted even when they are not in this process's environment."""

MIN_SECRET_LENGTH = 8
"""Shorter values (``1``, ``true``) are not treated as secrets: redacting them would garble text."""

REDACTED = "[redacted]"

LOCAL_PROVIDERS = frozenset({"ollama", "ollama_chat", "lm_studio", "hosted_vllm", "llamafile"})
"""Providers that run on the user's machine and need no key."""


class MissingCredentialsError(ScopewatchError):
    """A model whose provider needs a key (or other variable) that is not set; names the variable."""


@functools.lru_cache(maxsize=1024)
def is_secret_name(name: str) -> bool:
    """Whether a variable's name looks like a secret's (kept: every redaction asks it of every variable)."""
    return bool(SECRET_NAME.search(name))


def secret_values(env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(name, value) of every secret-looking environment variable, longest value first."""
    source = os.environ if env is None else env
    found = [(k, v) for k, v in source.items() if is_secret_name(k) and len(v) >= MIN_SECRET_LENGTH]
    return sorted(found, key=lambda kv: -len(kv[1]))


def redact(text: str, env: Mapping[str, str] | None = None) -> str:
    """``text`` with every secret environment value and every well-known key shape replaced by
    ``[redacted]``."""
    if not text:
        return text
    for _, value in secret_values(env):
        if value in text:
            text = text.replace(value, REDACTED)
    return KEY_SHAPES.sub(REDACTED, text)


def redact_value(value: Any, env: Mapping[str, str] | None = None) -> Any:
    """:func:`redact` applied to every string inside dicts, lists and tuples."""
    if isinstance(value, str):
        return redact(value, env)
    if isinstance(value, dict):
        return {k: redact_value(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v, env) for v in value]
    if isinstance(value, tuple):
        return tuple(redact_value(v, env) for v in value)
    return value


def event_scrubber(env: Mapping[str, str] | None = None) -> Callable[[BaseEvent], BaseEvent] | None:
    """For :class:`channel.emitter.Emitter`: every event with each secret value this process holds
    (its secret-named environment variables) replaced by ``[redacted]``, whichever tool printed it;
    None when there is no secret to hide. Key *shapes* are left alone here (a pack may plant fake
    keys as bait, and the audit must show them); the LLM agent redacts those too."""
    values = [value for _, value in secret_values(env)]
    if not values:
        return None

    def clean(text: str) -> str:
        for value in values:
            if value in text:
                text = text.replace(value, REDACTED)
        return text

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return clean(value)
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(walk(v) for v in value)
        return value

    def scrub(event: BaseEvent) -> BaseEvent:
        raw = event.model_dump()
        cleaned = walk(raw)
        return event if cleaned == raw else type(event).model_validate(cleaned, context=ESCAPED)

    return scrub


def scrubbed_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment without secret variables: what a workspace shell may inherit."""
    source = os.environ if env is None else env
    return {k: v for k, v in source.items() if not is_secret_name(k)}


def check_model_credentials(model: str, api_base: str | None = None) -> None:
    """Raise :class:`MissingCredentialsError` (one line naming the variable) when ``model`` cannot be
    called: an unknown provider, or a key litellm needs that the environment lacks. With
    ``api_base`` (a local OpenAI-compatible server) keys are optional. Imports litellm (slow): call
    it only when an LLM agent or judge is about to run."""
    from engine.llm.client import load_litellm

    litellm = load_litellm()
    try:
        _, provider, _, _ = litellm.get_llm_provider(model=model, api_base=api_base)
    except Exception:
        raise MissingCredentialsError(
            f"model {model!r}: litellm cannot tell its provider; write it as provider/model, "
            "e.g. openai/gpt-4o-mini, anthropic/claude-3-5-haiku-latest or ollama/llama3"
        ) from None
    if api_base or provider in LOCAL_PROVIDERS:
        return
    result = litellm.validate_environment(model=model)
    missing = [k for k in result.get("missing_keys", []) if k not in os.environ]
    if missing:
        raise MissingCredentialsError(
            f"model {model!r} needs {' and '.join(missing)} set in the environment "
            f"(export {missing[0]}=... first, or use --api-base for a local server)"
        )
