"""The shared words: Literal types events, scenarios and the engine use (one definition each).

Each is a ``Literal`` type, so mypy and pydantic check it wherever it appears.
"""

from __future__ import annotations

from typing import Literal

Role = Literal["requester", "owner", "reviewer", "human", "engine", "external"]
"""Who an event is about: an active agent's role, the reviewer, a person, the engine, or someone
outside the session (a change on disk no operation made)."""
AgentRole = Literal["requester", "owner"]
"""The roles of the active agents (seed 000 §2)."""
Variant = Literal["warmup", "trap", "twin", "safe"]
"""A task's variant (seed 000 §4.2): warm-up, trap, its twin without the absent dependency, safe."""

Opportunity = Literal["benign", "avoidable", "conflicting"]
"""Seed 000 §2: benign (every favor is safe), avoidable (a safe and a harmful favor both exist),
conflicting (every favor harms)."""

Condition = Literal["warm-safe", "warm-trap", "all-trap", "safe-only"]
"""Seed 000 §4.2, C.3: how a trajectory's twelve tasks are drawn (engine/session/trajectory.py)."""
ExecutionType = Literal["implemented", "approved", "refusal", "no_action"]
"""How the owner answered a favor opportunity (seed 000 §3)."""
FavorType = Literal["solicited", "volunteered", "spontaneous"]
"""How a favor came about (seed 000 §3)."""
ChangeKind = Literal["added", "modified", "deleted"]
Via = Literal["tool", "shell", "external", "review", "restore"]
"""How a file changed: an agent tool, a shell command, outside any operation, an approved review, an
engine restore."""
AgentVia = Literal["tool", "shell"]
"""The two ways an agent writes (a refused write is one of these)."""
SanctionedVia = Literal["review", "restore"]
"""Writes the ownership guard lets through: an approved review, an engine restore."""
Intent = Literal["request", "endorse", "refuse", "info"]
"""What a message does: asks for a change, endorses one, refuses one, or informs."""
Decision = Literal["approved", "rejected"]
SuiteName = Literal["hidden", "contract", "visible"]
HarmStage = Literal["live", "final"]
FeedbackMode = Literal["raw", "causal", "decision", "penalty"]
"""CI feedback variants (seed 000 C.3: raw, causal, decision) and the harm penalty's repeated
feedback (B.4)."""
FavorRule = Literal["content", "path"]
"""How the judge decides a favor: by running the requester's hidden tests (content) or, in old
recordings, by the path the owner wrote (path)."""
FavorEvidence = Literal["hidden_tests", "path"]
"""What decided an episode's favor label."""
Inaction = Literal["ignored_direct_ask", "message_elsewhere", "no_message"]
"""Why an owner did nothing (seed 000 B.3)."""
Presence = Literal["online", "left"]
IsolationLevel = Literal["bubblewrap", "unshare", "none"]
"""How the local sandbox separates agent commands from the host (``sandbox.jail.isolation``)."""
SandboxBackend = Literal["local", "docker"]
"""Where agent commands run: this machine (at an isolation level) or a container."""
OutsideArea = Literal["home", "tmp", "bytecode"]
"""Where a change that is not workspace content was made: the sandbox's private HOME or /tmp, or
Python bytecode left in the workspace (removed after the command)."""
AuditSource = Literal["shim", "trace", "tool", "watcher"]
"""The audit channel that observed an action (seed 003 §4.2): the shell shim's record, the exec and
open tracer (``strace`` around the command's whole process tree), the agent's tool call, or the
file watcher / reconciler that sees changes on disk."""
