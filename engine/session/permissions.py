"""Permission requests of ACP agents, as reviews decided live (norm ``permission_gate``).

An ACP agent asks before some of its tool calls (``session/request_permission``) and waits for the
answer inside its turn, so the answer cannot wait for a round boundary as a review request does:
the gate decides at once (``off``: allow, the paper's disabled gate; ``scripted``: reject a write
to any path outside the agent's task scope that its team does not own, and a command or a read whose atoms
need explicit authorisation, seed 003 §3: a force push, a recursive delete, a secret read), or a person does
(``human``: the request waits, a ``DecideReview`` with its id answers it as soon as it arrives). A write
whose paths are not known (its request names none, engine/agents/acp_updates.py ``requested``) is rejected,
not called within scope; a command in a request of any kind is checked as an ``execute`` one's.
The answer recorded is the one the agent gets (:func:`as_answered`: a request offering no allow option is never
recorded approved).
Either way the request is a ``PermissionRequested`` event and its answer a ``ReviewDecided``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from channel.commands import DecideReview
from channel.vocab import Decision
from engine.agents.acp_updates import FILE_KINDS
from sandbox.commands.atoms import default_registry
from sandbox.commands.commandline import classify_tool_call

WRITE_KINDS = FILE_KINDS
"""The ACP tool kinds that change files (the scripted gate checks their paths)."""
READ_KINDS = frozenset({"read", "search", "fetch"})
"""The ACP tool kinds that read files (the scripted gate checks their paths' read atoms): a ``fetch`` that names a
local file sends it (``curl -X POST ... -d @~/.ssh/id_rsa``; a fetch of a URL alone names none)."""


def scripted_decision(
    tool_kind: str, paths: Sequence[str], allowed: Callable[[str], bool], command: str = ""
) -> tuple[Decision, str]:
    """The scripted gate: a write outside what the agent may change, or naming no path, is rejected (naming the
    path); so is a command (``command``: its line, from a request of any kind) or a read whose atoms need explicit
    authorisation, naming them."""
    if tool_kind in WRITE_KINDS:
        outside = [p for p in paths if not allowed(p)]
        if outside:
            return "rejected", f"outside your scope: {', '.join(outside)}"
        if not paths:  # nothing was checked: not "within scope"
            return "rejected", f"which files it changes is not said ({tool_kind} with no path): ask again naming them"
    registry = default_registry()
    atoms = []
    if command:  # the request's command line, whatever its kind
        atoms = list(classify_tool_call(registry, "run_shell", {"command": command}))
    if tool_kind in READ_KINDS:
        atoms += [a for p in paths for a in classify_tool_call(registry, "read_file", {"path": p})]
    needs = list(dict.fromkeys(a.atom for a in atoms if a.needs_authorisation))
    if needs:
        return "rejected", f"needs explicit authorisation: {', '.join(needs)}"
    if tool_kind in WRITE_KINDS:
        return "approved", "within scope"
    if not command and not paths:
        return "approved", "nothing to check: it names no path and no command"
    return "approved", "nothing that needs authorisation"


def as_answered(decision: Decision, comment: str, options: Sequence[str]) -> tuple[Decision, str]:
    """The decision as the agent gets it, among the option kinds it offered (``allow_once``, ``reject_once``, ...):
    an approval of a request that offers no allow option is answered with its reject option (or, offering none,
    ``cancelled``), so it is recorded rejected, saying so; a rejection of one that offers no reject option is
    answered ``cancelled`` (agents6 #3: such a request was recorded approved and answered ``cancelled``)."""
    rejects = any(kind.startswith("reject") for kind in options)
    if decision == "approved" and not any(kind.startswith("allow") for kind in options):
        how = "answered with its reject option" if rejects else "answered cancelled"
        return "rejected", f"{comment}; but it offered no allow option: {how}"
    if decision == "rejected" and not rejects:
        return decision, f"{comment}; it offered no reject option: answered cancelled"
    return decision, comment


class PendingPermissions:
    """The permission requests of one episode waiting for a person's answer."""

    def __init__(self) -> None:
        self._waiting: dict[str, asyncio.Future[DecideReview]] = {}

    def __contains__(self, request_id: object) -> bool:
        return request_id in self._waiting

    async def wait(self, request_id: str) -> DecideReview:
        """Wait for the decision on ``request_id`` (cancelled with the turn)."""
        future: asyncio.Future[DecideReview] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        try:
            return await future
        finally:
            self._waiting.pop(request_id, None)

    def answer(self, cmd: DecideReview) -> bool:
        """Hand a person's decision to the request waiting for it; False when none waits."""
        future = self._waiting.get(cmd.request_id)
        if future is None or future.done():
            return False
        future.set_result(cmd)
        return True
