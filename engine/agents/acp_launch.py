"""How an ACP agent is started, and the peer commands it runs in a shell of its own.

Kinds: ``acp:<command line>`` runs that command (a word naming a file here becomes its absolute path:
the agent starts in the workspace); ``acp:<product>:<model>`` runs an installed agent product
(:mod:`engine.agents.products`) in its ACP mode, ``acp:gemini-cli:gemini-2.5-flash``: the pinned
executable from the agents cache, its HOME files written, its model endpoint (``--api-base``) and
key (from the host's variable it names) in its environment, its own permission gate on so that
every request it would ask a person comes to scopewatch's gate (norm ``permission_gate``).

An agent that runs shell commands itself instead of asking for a client terminal (Gemini CLI does)
still talks to its peer live: ``sw-post``, ``sw-dm`` and ``sw-request-review`` are on its PATH
(:func:`engine.agents.external.write_message_commands`) and queue into an outbox the client
delivers whenever one of its tool calls ends and at the end of each turn (:class:`AcpOutbox`); they
say ``queued`` at once, since nothing is delivered while the call that runs them is still going.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from channel.errors import ScopewatchError
from engine.agents import homefiles
from engine.agents.base import EpisodeBrief
from engine.agents.external import outbox_item, write_message_commands
from engine.agents.products import product_for
from engine.agents.products.base import NO_KEY, Product

PREFIX = "acp:"
BIN = ".scopewatch/acp-bin"
"""Where the peer commands go, in the agent's HOME."""
OUTBOX = ".scopewatch/acp-outbox.jsonl"


def is_acp(kind: str) -> bool:
    """Whether ``kind`` names an ACP agent (``acp:<command>`` or ``acp:<product>:<model>``)."""
    return kind.startswith(PREFIX)


def check_acp_scenario(kind: str, scenario: str, *, audit: bool | None = None) -> None:
    """An ACP agent sits in favor packs' seats only: an audit scenario's seat wants the audit prompt and
    its ``ask_user`` tool, which scopewatch's ACP client does not offer; one clear error, before anything runs
    (``audit``: whether ``scenario`` is one, when the caller knows)."""
    from scenarios.overeager.benchmark import is_audit_scenario

    if is_acp(kind) and (is_audit_scenario(scenario) if audit is None else audit):
        raise ScopewatchError(
            f"{kind}: ACP agents are not supported on audit scenarios ({scenario}); seat them on a favor pack "
            "(--scenario favorbench-mini), or audit an agent product as PRODUCT:MODEL or cmd:'<command line>'"
        )


@dataclass(frozen=True)
class Launch:
    """What to start: the argv, and the product (with its model) when it is one."""

    argv: tuple[str, ...]
    product: Product | None = None
    model: str = ""

    def environment(self, home: Path, env: dict[str, str], *, api_base: str | None,
                    host: dict[str, str]) -> dict[str, str]:
        """``env`` (added to the sandbox's minimal one) with the peer commands first on PATH and the outbox
        named; for a product, its HOME files written and its model's variables added."""
        bin_dir = home / BIN
        write_message_commands(bin_dir, wait=0, home=home)
        outbox = home / OUTBOX
        homefiles.remove(home, outbox)
        path = ":".join(p for p in (str(bin_dir), env.get("PATH", "")) if p)  # no empty entry (the working folder)
        env = {**env, "PATH": path, "SCOPEWATCH_OUTBOX": str(outbox)}
        if self.product is not None:
            self.product.setup_home(home, self.model, api_base)
            env.update(self.product.model_env(api_base, host.get(self.product.key_env) or NO_KEY))
        return env


def acp_launch(kind: str) -> Launch:
    """The launch of an ACP agent kind; a missing or unparsable command, or a product that is not
    installed or has no ACP mode, is one clear error."""
    rest = kind.removeprefix(PREFIX)
    head, _, model = rest.partition(":")
    product = product_for(head) if " " not in head and model and " " not in model else None
    if product is not None:
        argv = product.acp_arguments(model)
        if argv is None:
            raise ScopewatchError(f"acp: {head} has no ACP mode; seat it as {head}:{model} instead")
        if not product.installed():
            raise ScopewatchError(f"acp: {head} is not installed: scopewatch agents install {head}")
        return Launch((*product.program(), *argv), product, model)
    try:
        words = shlex.split(rest)
    except ValueError as exc:
        raise ScopewatchError(f"acp: cannot parse the command line ({exc})") from None
    if not words:
        raise ScopewatchError("acp: needs a command line, e.g. --owner acp:'gemini --acp', or acp:gemini-cli:MODEL")
    return Launch(tuple(os.path.abspath(w) if not os.path.isabs(w) and os.path.isfile(w) else w for w in words))


def acp_command(kind: str) -> list[str]:
    """The argv of an ACP agent kind (see :func:`acp_launch`)."""
    return list(acp_launch(kind).argv)


class AcpOutbox:
    """The peer commands' queue: each call is handed out once, in the order it was queued."""

    def __init__(self, path: Path | None, home: Path | None = None) -> None:
        self.path = path
        self.home = home
        """The agent's HOME above ``path``: no link below it is followed (default: ``path``'s folder)."""
        self._delivered = 0

    def take(self) -> list[dict[str, Any]]:
        """The calls queued since the last take (``{"tool": ..., "args": ...}``)."""
        if self.path is None:
            return []
        try:  # as root, in the agent's HOME: never through a link (homefiles)
            raw = homefiles.read_file(self.home or self.path.parent, self.path)
        except homefiles.UnsafeName:
            return []
        if raw is None:
            return []
        lines = raw.decode("utf-8", errors="replace").splitlines()
        items = [item for item in map(outbox_item, lines) if item is not None]
        new, self._delivered = items[self._delivered :], len(items)
        return new


def first_prompt(brief: EpisodeBrief, inbox: str) -> str:
    """The ticket, who the agent is, what its team owns, how to talk to the other agent."""
    return brief.first_prompt(
        "To talk to them, run `sw-post TEXT` (shared channel) or `sw-dm TO TEXT` (private) in a terminal.", inbox
    )
