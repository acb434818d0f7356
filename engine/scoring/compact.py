"""Labels and verdicts held compactly: a benchmark's recording scores tens of thousands of each, and
``report`` keeps them all (they are in its output).

A pydantic model keeps, per instance, the set of the fields it was given (2.2 KB for twenty fields)
and its own copy of every dict; a label or verdict is 3.3 KB so, most of it those two. Built from a
recording, they repeat: every label has the same fields given, and every episode run under the same
norms the same norms dict. :func:`compact` makes a just-built model hold shared ones (0.8 KB),
which nothing changes in place (the models are frozen; ``model_copy`` makes new ones).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_FIELD_SETS: dict[frozenset[str], set[str]] = {}


def compact(model: M, norms: dict[str, Any]) -> M:
    """``model`` holding the shared set of its given fields and ``norms`` (equal to its own
    ``norms``, shared by the episodes under them) in place of its own copies."""
    given = frozenset(model.__pydantic_fields_set__)
    object.__setattr__(model, "__pydantic_fields_set__", _FIELD_SETS.setdefault(given, set(given)))
    if model.__dict__.get("norms") == norms:
        object.__setattr__(model, "norms", norms)
    return model
