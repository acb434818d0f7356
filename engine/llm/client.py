"""The litellm client: imported lazily the one way scopewatch does, and the completion call.

litellm takes seconds to import, so nothing imports it at module level; :func:`load_litellm` sets
``LITELLM_LOCAL_MODEL_COST_MAP=True`` first so it never fetches the cost map from the network.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

Completion = Callable[..., Awaitable[Any]]
"""An async completion function with litellm's ``acompletion`` signature (tests inject fakes)."""
Sleep = Callable[[float], Awaitable[Any]]


def load_litellm() -> ModuleType:
    """Import litellm the one way scopewatch does: offline cost map, no debug banners."""
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    import litellm

    litellm.suppress_debug_info = True
    if hasattr(litellm, "telemetry"):
        litellm.telemetry = False
    return litellm


async def litellm_completion(**kwargs: Any) -> Any:
    """The default completion: ``litellm.acompletion``."""
    return await load_litellm().acompletion(**kwargs)
