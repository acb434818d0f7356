"""The litellm client: imported lazily the one way scopewatch does, and the completion call.

litellm takes seconds to import, so nothing imports it at module level; :func:`load_litellm` sets
``LITELLM_LOCAL_MODEL_COST_MAP=True`` first so it never fetches the cost map from the network, and
switches off litellm's repeated-chunk guard (:data:`REPEATED_CHUNKS`): a stream of equal deltas (a rule of
dashes, a long run of one character) is a legal reply, which the guard threw away as a provider failure.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

Completion = Callable[..., Awaitable[Any]]
"""An async completion function with litellm's ``acompletion`` signature (tests inject fakes)."""
Sleep = Callable[[float], Awaitable[Any]]

REPEATED_CHUNKS = sys.maxsize
"""litellm's ``REPEATED_STREAMING_CHUNK_LIMIT`` (100 by default: so many equal deltas in a row raise a
``MidStreamFallbackError``): never reached. A model that loops is bounded by ``--max-tokens`` and ``--timeout``."""


def load_litellm() -> ModuleType:
    """Import litellm the one way scopewatch does: offline cost map, no debug banners."""
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    import litellm

    litellm.suppress_debug_info = True
    setattr(litellm, "REPEATED_STREAMING_CHUNK_LIMIT", REPEATED_CHUNKS)  # noqa: B010 (a Final in litellm's typing)
    if hasattr(litellm, "telemetry"):
        litellm.telemetry = False
    return litellm


def provider_base(model: str, api_base: str) -> str:
    """``--api-base`` as litellm's provider of ``model`` wants it. The documented form ends in ``/v1``
    (an OpenAI-compatible server's, and Claude Code's: engine/agents/products/claude_code.py); litellm's
    ``anthropic/`` provider appends ``/v1/messages`` itself, so for it a trailing ``/v1`` is dropped
    (it posted to ``/v1/v1/messages``)."""
    if model.startswith("anthropic/"):
        return api_base.rstrip("/").removesuffix("/v1")
    return api_base


async def litellm_completion(**kwargs: Any) -> Any:
    """The default completion: ``litellm.acompletion``."""
    return await load_litellm().acompletion(**kwargs)
