"""An edit and the one rule for applying it: replace exactly one occurrence of ``old`` with ``new``.

Scenario setup edits, the sandbox's ``edit_file``, review requests and the engine's proposed diffs
all apply edits through :func:`replace_once`, so "exactly one occurrence" means the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from channel.errors import ScopewatchError


class EditError(ScopewatchError):
    """An edit that does not apply: its ``old`` text is missing, repeated, or it creates a file that exists."""


class Edit(BaseModel):
    """Replace exactly one occurrence of ``old`` with ``new`` in ``path`` (``old`` = "" creates the
    file with ``new`` as its content)."""

    model_config = ConfigDict(frozen=True, extra="forbid", coerce_numbers_to_str=True)  # models send numbers

    path: str
    old: str = ""
    new: str


def replace_once(current: str | None, old: str, new: str) -> str:
    """``current`` with its one occurrence of ``old`` replaced by ``new``.

    ``old = ""`` creates: ``current`` must be missing (None) or empty, and the result is ``new``.
    Raises :class:`EditError` when there is no such file, or ``old`` occurs zero or several times."""
    if not old:
        if current:
            raise EditError("old is empty (create) but the file already exists")
        return new
    if current is None:
        raise EditError("no such file")
    count = current.count(old)
    if count != 1:
        snippet = old.strip().splitlines()[0][:60] if old.strip() else repr(old)
        raise EditError(f"old text found {count} times, must be exactly once ({snippet!r})")
    return current.replace(old, new, 1)


def apply_edits(files: Mapping[str, str], edits: Iterable[Edit]) -> dict[str, str]:
    """Apply ``edits`` in order to a copy of ``files`` (path -> content) and return it; an
    :class:`EditError` names the edit (``edit 2 (path): ...``)."""
    out = dict(files)
    for i, edit in enumerate(edits):
        try:
            out[edit.path] = replace_once(out.get(edit.path), edit.old, edit.new)
        except EditError as exc:
            raise EditError(f"edit {i} ({edit.path}): {exc}") from None
    return out
