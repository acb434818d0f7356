"""The prompts an LLM agent receives, rendered from the data files in ``engine/llm/prompts/``.

The texts live in files a user can read and edit (shape of seed 000, appendix C): ``system.md``
(the shared monorepo), ``ticket.md`` (the task ticket), ``reviewer.available.md`` /
``reviewer.away.md`` (the reviewer notice), ``consent.md`` (seed 003's scope-of-consent block, the
``consent_block`` norm), one snippet per norm value in ``norms/`` and the short runtime notes in
``notes.toml``. Setting ``SCOPEWATCH_PROMPTS`` to a folder makes any file found there replace the
built-in one of the same name.

Norm snippets are found by name: for a norm ``key`` with value ``v`` (booleans as ``true`` /
``false``) the first of ``norms/<key>.<v>.<role>.md``, ``norms/<key>.<v>.md``, ``norms/<key>.md``
that exists is used; none means the norm adds nothing. Templates use ``$name`` placeholders
(:class:`string.Template`). A template line holding only ``$section`` disappears, together with the
blank line after it, when that section is empty: that is how the consent-kept and consent-stripped
prompts differ by exactly the consent block and nothing else.

One renderer serves the agent and ``scopewatch prompts show``: :func:`render_prompt` (system prompt
and ticket), :func:`render_turn` (the user message that starts each turn), :func:`norm_change_note`.

A :class:`Briefing` is what one kind of session tells its LLM agents and which tools it gives them:
:data:`FAVOR_BRIEFING` (the shared monorepo above) or :data:`AUDIT_BRIEFING` (seed 003: ``audit.md``
as the system prompt, which says who the agent works for and how its tools work and nothing about
scope, and the scenario's own prompt as the first user message, verbatim: terse, verbose with the
consent block, or pointing to the README, appendix I; kept and stripped arms stay byte-identical
apart from the block).
"""

from __future__ import annotations

import os
import re
import string
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from channel.errors import ScopewatchError
from channel.events import CIFeedbackSent, MessagePosted, ReviewDecided, ReviewRequested
from channel.text import readable
from channel.vocab.norms import Norms
from channel.vocab.tools import AUDIT_TOOLS, SESSION_TOOLS, TOOL_SPECS, ToolArgs, tool_specs
from engine.agents.base import EpisodeBrief

PROMPTS_DIR = Path(__file__).parent / "prompts"
OVERRIDE_ENV = "SCOPEWATCH_PROMPTS"

ChatMessage = dict[str, Any]

_NOT_IN_RULES = frozenset({"reviewer", "consent_block", "memory", "turn_budget_applies"})
"""Norms rendered elsewhere (reviewer notice, consent section) or not told to the model (memory)."""

_SECTION_LINE = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?[ \t]*$")


class PromptError(ScopewatchError):
    """A prompt file that is missing or does not render; the message names the file."""


def prompt_dirs() -> list[Path]:
    """Where prompt files are looked up, first match wins: the override folder, then the built-ins."""
    dirs = []
    override = os.environ.get(OVERRIDE_ENV)
    if override:
        dirs.append(Path(override))
    dirs.append(PROMPTS_DIR)
    return dirs


def find(name: str) -> Path | None:
    """The file a prompt name resolves to, or None when no folder has it."""
    for folder in prompt_dirs():
        path = folder / name
        if path.is_file():
            return path
    return None


def read(name: str) -> str:
    """A prompt file's text without its final newline."""
    path = find(name)
    if path is None:
        raise PromptError(f"prompt file {PROMPTS_DIR / name} is missing")
    return path.read_text(encoding="utf-8").rstrip("\n")


def fill(name: str, text: str, values: Mapping[str, str]) -> str:
    """Substitute ``$name`` placeholders; a line holding only an empty ``$section`` is dropped with
    the blank line that follows it."""
    lines = text.split("\n")
    kept: list[str] = []
    skip_blank = False
    for line in lines:
        if skip_blank:
            skip_blank = False
            if not line.strip():
                continue
        match = _SECTION_LINE.match(line)
        if match and match.group(1) in values and not values[match.group(1)]:
            skip_blank = True
            continue
        kept.append(line)
    try:
        return string.Template("\n".join(kept)).substitute(values)
    except KeyError as exc:
        raise PromptError(
            f"prompt file {find(name) or name}: unknown placeholder ${exc.args[0]}; known: "
            + ", ".join(f"${k}" for k in sorted(values))
        ) from None
    except ValueError as exc:
        raise PromptError(f"prompt file {find(name) or name}: {exc} (write a literal dollar sign as $$)") from None


def render(name: str, values: Mapping[str, str]) -> str:
    """Read and fill one prompt file."""
    return fill(name, read(name), values)


def notes() -> dict[str, dict[str, str]]:
    """The short runtime texts of ``notes.toml`` (turn header, norm notes, tool errors, inbox lines)."""
    path = find("notes.toml")
    if path is None:
        raise PromptError(f"prompt file {PROMPTS_DIR / 'notes.toml'} is missing")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise PromptError(f"prompt file {path}: {exc}") from None
    return data


def note(section: str, key: str, **values: Any) -> str:
    """One text of ``notes.toml``, filled."""
    table = notes().get(section, {})
    if key not in table:
        raise PromptError(f"prompt file {find('notes.toml')}: [{section}] has no {key!r}")
    return fill(f"notes.toml [{section}] {key}", table[key], {k: str(v) for k, v in values.items()})


def _value_name(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def snippet(key: str, value: Any, role: str, values: Mapping[str, str]) -> str:
    """The rule text a norm value adds to the prompt ("" when it adds none)."""
    v = _value_name(value)
    for name in (f"norms/{key}.{v}.{role}.md", f"norms/{key}.{v}.md", f"norms/{key}.md"):
        if find(name) is not None:
            return render(name, values)
    return ""


def _values(brief: EpisodeBrief, norms: Norms) -> dict[str, str]:
    return {
        "agent_id": brief.agent_id,
        "role": brief.role,
        "team": brief.team,
        "peer_id": brief.peer_id,
        "peer_team": brief.peer_team,
        "owned": ", ".join(f"`{p}`" for p in brief.owned_patterns) or "no files",
        "task_id": brief.task_id,
        "episode": str(brief.episode),
        "budget": str(brief.budget),
    }


def rules(brief: EpisodeBrief, norms: Norms) -> str:
    """The norm snippets in force for this agent, in the order of :class:`Norms` fields."""
    values = _values(brief, norms)
    parts = []
    for key in Norms.model_fields:
        if key in _NOT_IN_RULES or (key == "ci_detail" and norms.ci_feedback == "off"):
            continue
        text = snippet(key, getattr(norms, key), brief.role, values)
        if text:
            parts.append(text)
    return "\n".join(parts)


def consent_block(brief: EpisodeBrief, norms: Norms) -> str:
    """Seed 003's scope-of-consent block, rendered (the text the consent_block norm adds)."""
    return render("consent.md", _values(brief, norms))


def system_prompt(brief: EpisodeBrief, norms: Norms) -> str:
    values = _values(brief, norms)
    values["rules"] = rules(brief, norms)
    values["consent"] = consent_block(brief, norms) if norms.consent_block else ""
    return render("system.md", values)


def reviewer_notice(available: bool, brief: EpisodeBrief, norms: Norms) -> str:
    return render("reviewer.available.md" if available else "reviewer.away.md", _values(brief, norms))


def ticket_message(brief: EpisodeBrief, norms: Norms) -> str:
    values = _values(brief, norms)
    values["ticket"] = brief.ticket.strip()
    values["reviewer_notice"] = reviewer_notice(brief.reviewer_available, brief, norms)
    return render("ticket.md", values)


def render_prompt(brief: EpisodeBrief, norms: Norms) -> list[ChatMessage]:
    """What an LLM agent of a favor session receives at the start of an episode: the system prompt
    (monorepo, ownership, review, scoring, the rules in force, the consent block) and the task ticket."""
    return FAVOR_BRIEFING.render(brief, norms)


def audit_system_prompt(brief: EpisodeBrief, norms: Norms) -> str:
    """An audit run's system prompt (``audit.md``): the agent, its tools, its turn budget; no scope."""
    return render("audit.md", _values(brief, norms))


def audit_ticket(brief: EpisodeBrief, norms: Norms) -> str:
    """An audit run's first user message: the scenario's prompt exactly as the run's consent arm
    gives it (no template around it, so the arms differ by the block alone)."""
    return brief.ticket


@dataclass(frozen=True)
class Briefing:
    """What an LLM agent is told and which tools it has, for one kind of session."""

    tools: tuple[type[ToolArgs], ...]
    system: Callable[[EpisodeBrief, Norms], str]
    ticket: Callable[[EpisodeBrief, Norms], str]

    def render(self, brief: EpisodeBrief, norms: Norms) -> list[ChatMessage]:
        """The start of an episode: the system prompt and the ticket."""
        return [
            {"role": "system", "content": self.system(brief, norms)},
            {"role": "user", "content": self.ticket(brief, norms)},
        ]

    @property
    def tool_names(self) -> frozenset[str]:
        return frozenset(tool.name for tool in self.tools)

    def function_tools(self) -> list[dict[str, Any]]:
        """The tools as OpenAI-style function definitions (litellm translates them for other providers)."""
        return [{"type": "function", "function": spec} for spec in tool_specs(self.tools)]


FAVOR_BRIEFING = Briefing(SESSION_TOOLS, system_prompt, ticket_message)
"""A favor session's agents: the shared monorepo, ownership, review, the rules in force (seed 000)."""
AUDIT_BRIEFING = Briefing(AUDIT_TOOLS, audit_system_prompt, audit_ticket)
"""An audit run's agent: a user's coding agent with the scenario's prompt and ``ask_user`` (seed 003)."""


def render_inbox(events: Iterable[Any], agent_id: str) -> list[str]:
    """One line per event visible to the agent (its own messages and norm changes are left out:
    norm changes get :func:`norm_change_note`); each text as it was written (:func:`~channel.text.readable`)."""
    lines = []
    for event in events:
        if isinstance(event, MessagePosted):
            if event.actor == agent_id:
                continue
            key = "message_shared" if event.to is None else "message_dm"
            lines.append(note("inbox", key, actor=event.actor, text=readable(event.text), to=event.to or ""))
        elif isinstance(event, ReviewRequested):
            if event.actor == agent_id:
                continue
            lines.append(
                note(
                    "inbox",
                    "review_requested",
                    request_id=event.request_id,
                    actor=event.actor,
                    to=event.to,
                    description=readable(event.description),
                    diff=readable(event.diff).rstrip("\n"),
                )
            )
        elif isinstance(event, ReviewDecided):
            lines.append(
                note(
                    "inbox",
                    "review_decided",
                    request_id=event.request_id,
                    decision=event.decision,
                    actor=event.actor,
                    comment=readable(event.comment),
                ).rstrip()
            )
        elif isinstance(event, CIFeedbackSent):
            lines.append(note("inbox", "ci_feedback", text=readable(event.text)))
    return lines


def norm_change_note(old: Norms, new: Norms, brief: EpisodeBrief) -> str:
    """Tell the model which rules changed, from the same snippets the system prompt uses; "" when
    nothing it is told about changed."""
    values = {**_values(brief, new), "budget": str(new.budget_for(brief.role))}
    lines = []
    for key in Norms.model_fields:
        before, after = getattr(old, key), getattr(new, key)
        if before == after or key in ("memory", "turn_budget_applies"):
            continue
        if key == "consent_block":
            lines.append(consent_block(brief, new) if after else note("norms", "consent_removed"))
            continue
        if key == "reviewer":
            if after in ("available", "human", "away"):
                lines.append("- " + reviewer_notice(after != "away", brief, new))
            continue
        text = snippet(key, after, brief.role, values)
        lines.append(text or note("norms", "lifted", title=key.replace("_", " ")))
    if not lines:
        return ""
    return note("norms", "changed") + "\n" + "\n".join(lines)


def render_turn(
    turn: int,
    budget_left: int,
    inbox_lines: list[str],
    *,
    norm_note: str = "",
    extra: Iterable[str] = (),
) -> str:
    """The user message that starts a turn: changed rules, anything the agent must know about its
    last reply, what arrived since its last turn, and the turn header."""
    parts = [p for p in (norm_note, *extra) if p]
    if inbox_lines:
        parts.append("\n".join(inbox_lines))
    elif turn > 1:
        parts.append(note("turn", "nothing_new"))
    parts.append(note("turn", "header", turn=turn, budget_left=budget_left))
    return "\n\n".join(parts)


def first_call_messages(brief: EpisodeBrief, norms: Norms) -> list[ChatMessage]:
    """Exactly the messages of an agent's first model call with an empty inbox (what
    ``scopewatch prompts show`` prints)."""
    messages = render_prompt(brief, norms)
    append_user(messages, render_turn(1, brief.budget, []))
    return messages


def append_user(messages: list[ChatMessage], text: str) -> None:
    """Add a user message, merged into the last one when that is a user message too (some
    providers refuse two user messages in a row)."""
    last = messages[-1] if messages else None
    if last is not None and last.get("role") == "user" and isinstance(last.get("content"), str):
        messages[-1] = {**last, "content": last["content"] + "\n\n" + text}
    else:
        messages.append({"role": "user", "content": text})


# --- scopewatch prompts show -------------------------------------------------------------------


def show_prompts(
    brief: EpisodeBrief, norms: Norms, *, variant: str = "", defaults: Norms | None = None, pack: str = ""
) -> str:
    """What ``scopewatch prompts show`` prints: the norms in force (and the pack's defaults they start
    from), the first model call's messages and the tools."""
    base = defaults or Norms()
    changed = [f"{k}={_value_name(v)}" for k, v in norms.model_dump().items() if v != getattr(base, k)]
    effective = " ".join(f"{k}={_value_name(v)}" for k, v in norms.model_dump().items())
    out = [
        f"# {brief.role} ({brief.agent_id}, team {brief.team}), task {brief.task_id}"
        + (f" ({variant})" if variant else "")
        + f", norms: {' '.join(changed) or 'default'}",
        f"# norms in force{f' (defaults of {pack} under --norm)' if pack else ''}: {effective}",
        f"# prompt files: {', '.join(str(d) for d in prompt_dirs())}",
    ]
    for message in first_call_messages(brief, norms):
        out += ["", f"──── {message['role']} ────", message["content"]]
    out += ["", "──── tools ────"]
    for spec in TOOL_SPECS:
        params = ", ".join(spec["parameters"].get("properties", {}))
        out.append(f"{spec['name']}({params}): {spec['description']}")
    return "\n".join(out)
