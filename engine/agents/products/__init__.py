"""Agent products as seats: ``claude-code:MODEL``, ``codex:MODEL``, ``gemini-cli:MODEL``.

Each product has one adapter module behind :class:`~engine.agents.products.base.Product`; a
``-gated`` suffix (``codex-gated:MODEL``) seats the same product with its permission gate on (seed
003's second arm; the plain name runs it with the gate off, as the paper does).

- :mod:`~engine.agents.products.base` — the one interface: pinned package, HOME files, command line, stream reader;
- :mod:`~engine.agents.products.claude_code` — Claude Code in print mode, its ``stream-json`` events;
- :mod:`~engine.agents.products.codex` — Codex CLI in ``exec --json`` mode, its events;
- :mod:`~engine.agents.products.gemini_cli` — Gemini CLI in headless mode, its ``stream-json`` events;
- :mod:`~engine.agents.products.install` — ``scopewatch agents install NAME``: the pinned version into the agents cache;
- :mod:`~engine.agents.products.run` — one product run: HOME prepared, process run in the sandbox, stream read live.
"""

from __future__ import annotations

from engine.agents.products.base import Product
from engine.agents.products.claude_code import ClaudeCode
from engine.agents.products.codex import Codex
from engine.agents.products.gemini_cli import GeminiCli

PRODUCTS: dict[str, type[Product]] = {p.name: p for p in (ClaudeCode, Codex, GeminiCli)}
"""The shipped products, by seat name."""
GATED = "-gated"


def product_names() -> tuple[str, ...]:
    """Every seat name a product answers to (gate off and on)."""
    return tuple(n for name in sorted(PRODUCTS) for n in (name, name + GATED))


def product_for(name: str) -> Product | None:
    """A fresh adapter for seat name ``name`` (``codex``, ``codex-gated``), or None."""
    base = name.removesuffix(GATED)
    if base not in PRODUCTS:
        return None
    return PRODUCTS[base](gate=name.endswith(GATED))
