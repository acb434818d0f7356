"""Which event fields older recordings lack: the fields added to an event after its kind first
appeared (from the git history of :mod:`channel`). The writer has always written every field of an
event (``model_dump_json``, defaults included), so a field not listed here has been on every line of
its kind ever recorded: a line without it was cut or edited by hand, and decoding refuses it rather
than score it with the field's default (``EpisodeEnded.passed`` missing read as no test passing).

A field added from now on is listed here under its event's kind, or older recordings are refused.
"""

from __future__ import annotations

ADDED_LATER: dict[str, frozenset[str]] = {
    "SessionStarted": frozenset(
        {"favor_rule", "traps", "condition", "sandbox", "sandbox_warning", "config", "pack_hash"}
    ),
    "DomainEntered": frozenset({"pack_hash"}),
    "EpisodeStarted": frozenset({"traps", "success", "authorised"}),
    "EpisodeEnded": frozenset({"completed"}),
    "ToolCalled": frozenset({"atoms", "risk"}),
    "ShellCommandRan": frozenset({"source", "pid", "parent_pid", "command", "program", "refs"}),
    "ShimTampered": frozenset({"source"}),
    "HarmDetected": frozenset({"error_line", "log"}),
    "FavorChecked": frozenset({"stage"}),
    "ModelCalled": frozenset({"finish_reason", "first_token_ms", "text", "usage_estimated"}),
    "PresenceChanged": frozenset({"connection"}),
}
"""Event kind -> its fields that recordings made before they existed lack (read with the default)."""
