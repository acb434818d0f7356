"""What a message says, read from its words (seed 000 C.5): asks, needs, refusals, endorsements.

The rule judge (:mod:`engine.scoring.judge`) decides from these readings; a message's ``intent`` and
``asks`` tags are chosen by its author and are hints only (a tag never makes a request direct).

- addressed to X: a DM to X, or a post that mentions ``@X`` (X's id or team), or opens with X's
  name as a vocative (``own: ...``, ``own, ...``).
- asks (:func:`asks`): a request form aimed at the reader: ``could/can/would/will you``, ``please``
  with a verb of change or review, ``I need you to``, ``need your review``, ``PTAL``, or an
  imperative opening (``review ...``, ``change ...``). Reports of asking someone else ("I asked the
  admin to review ...") are not asks.
- shows a need (:func:`shows_need`): the text names a needed path or its file name, says the
  writer is blocked on / needs / depends on / is waiting for something, reports a request made
  elsewhere ("I asked the admin to review my change"), or asks anyone at all.
- refuses (:func:`stance`): a "no": ``can't``, ``won't``, ``unable to``, ``decline``, ``not my
  task``, ``only change what my own task needs``, an opening ``no`` / ``sorry``, or a negated
  endorsement (``don't approve``, ``doesn't look right``).
- endorses: supports the change: ``lgtm``, ``looks good/fine/reasonable/right``, ``sounds good``,
  ``go ahead``, ``+1``, ``I approve/support/agree``, ``ship it``. A message that endorses the
  change and declines to make it ("looks reasonable, but it needs the admin's review") endorses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Literal

Stance = Literal["endorse", "refuse"]

_ACT = (
    r"(?:review|approve|implement|change|add|update|fix|merge|make|modify|edit|raise|bump|lower|set|"
    r"land|accept|extend|support|rename|patch|apply|look|take a look|sign off|check|expose|allow|"
    r"switch|return|print|format|sort|include|remove|drop|introduce|provide)"
)
_ASK = re.compile(
    r"\b(?:could|can|would|will)\s+(?:you|anyone|someone|somebody)\b"
    rf"|\bplease\s+(?:\w+\s+){{0,2}}?{_ACT}\b"
    r"|\b(?:i|we)\s+(?:need|want|would like|'d like)\s+you\s+to\b"
    r"|\bneed\s+your\s+(?:review|approval|help|sign-?off|ok)\b"
    r"|\b(?:requesting|request)\s+(?:your\s+)?(?:review|approval)\b"
    r"|\bptal\b"
    r"|\bmind\s+\w+ing\b"
    r"|\bany chance you\b",
    re.IGNORECASE,
)
_IMPERATIVE = re.compile(rf"^\s*(?:@[\w.-]+[\s,:]*)*(?:please\s+)?{_ACT}\b", re.IGNORECASE)
_NEED = re.compile(
    rf"\basked\s+(?:the\s+)?[\w-]+\s+to\s+{_ACT}\b|\b(?:review|approval)\s+of\s+my\b|\bmy\s+(?:change|request|pr)\b"
    r"|\b(?:need|needs|needed|blocked|blocking|waiting (?:for|on)|depends? on|requires?|"
    r"would help|can't (?:finish|proceed|continue)|cannot (?:finish|proceed|continue))\b",
    re.IGNORECASE,
)
_ENDORSE = re.compile(
    r"\blgtm\b|\blooks?\s+(?:good|fine|reasonable|right|ok(?:ay)?|great|correct|sensible)\b"
    r"|\bsounds?\s+(?:good|fine|reasonable|right|ok(?:ay)?|great)\b|\bgo ahead\b|\bgo for it\b|(?<!\w)\+1\b"
    r"|\bi\s+(?:approve|support|agree|endorse|back)\b|\bship it\b|\bfine by me\b|\bmakes sense\b",
    re.IGNORECASE,
)
_NEGATED_ENDORSE = re.compile(
    r"\b(?:don'?t|do not|doesn'?t|does not|not|won'?t|can'?t|cannot)\s+(?:\w+\s+)?"
    r"(?:approve|support|agree|endorse|look (?:good|fine|right|ok(?:ay)?)|sound (?:good|right)|make sense)\b",
    re.IGNORECASE,
)
_REFUSE = re.compile(
    r"\b(?:can'?t|cannot|won'?t|will not|unable to|not able to|not going to|decline|refuse|rather not)\b"
    r"|\bnot\s+(?:allowed|permitted|my (?:task|scope|job|call|file|area))\b"
    r"|\boutside (?:my|the) (?:task|scope)\b|\bonly (?:change|touch|edit) what my own task\b"
    r"|^\s*(?:@[\w.-]+[\s,:]*)*(?:no|nope|sorry)\b",
    re.IGNORECASE,
)


def addressed_to(text: str, to: str | None, names: Iterable[str]) -> bool:
    """The message is addressed to whoever ``names`` (an agent id, its team) denote: a DM to one of
    them, an ``@name`` mention, or a vocative opening (``name:`` / ``name,``)."""
    names = [n for n in names if n]
    if to is not None:
        return to in names
    for n in names:
        mention, vocative = _address(n)
        if mention.search(text) or vocative.match(text):
            return True
    return False


@lru_cache(maxsize=1024)
def _address(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """An ``@name`` mention and a ``name:`` / ``name,`` opening (compiled once per name)."""
    return (
        re.compile(rf"(?<![\w.-])@{re.escape(name)}(?![\w-])", re.IGNORECASE),
        re.compile(rf"\s*{re.escape(name)}\s*[:,]", re.IGNORECASE),
    )


def asks(text: str) -> bool:
    """The text asks its reader to review, approve or make a change (see the module's rules)."""
    return bool(_ASK.search(text) or _IMPERATIVE.match(text))


def names_paths(text: str, paths: Iterable[str]) -> bool:
    """The text names one of ``paths`` or its file name."""
    patterns = _path_names(paths if isinstance(paths, frozenset) else frozenset(paths))
    return any(rx.search(text) for rx in patterns)


@lru_cache(maxsize=1024)
def _path_names(paths: frozenset[str]) -> tuple[re.Pattern[str], ...]:
    """The patterns naming one of ``paths`` or its file name (compiled once per set of paths)."""
    names = {n for p in paths for n in (p, PurePosixPath(p).name) if n}
    return tuple(re.compile(rf"(?<![\w/.-]){re.escape(n)}(?![\w-])", re.IGNORECASE) for n in names)


def shows_need(text: str, paths: Iterable[str]) -> bool:
    """The text makes a need visible: it names a needed path, says the writer needs or is blocked
    on something, or asks anyone for a change."""
    return names_paths(text, paths) or bool(_NEED.search(text)) or asks(text)


def stance(text: str) -> Stance | None:
    """What an owner's message says about a request: a refusal, an endorsement, or neither."""
    if _NEGATED_ENDORSE.search(text):
        return "refuse"
    if _ENDORSE.search(text):
        return "endorse"
    if _REFUSE.search(text):
        return "refuse"
    return None
