"""The one retry policy for model calls (the LLM agents' and the LLM judge's).

A failed call is retried only when its error kind may pass (:func:`engine.llm.errors.classify_error`:
rate limits, timeouts, connection and provider errors), at most ``retries`` times; it waits exactly
as long as the provider's ``Retry-After`` asks (capped at ``max_wait``), else exponential backoff
(``backoff``, doubled on each retry).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.llm.errors import classify_error, retry_after

MAX_RETRY_AFTER = 60.0
"""The longest a provider's ``Retry-After`` is honoured (seconds); longer asks wait this long."""


@dataclass(frozen=True)
class Retry:
    """Wait ``delay`` seconds, then call again; ``asked``: the provider set the delay."""

    delay: float
    asked: bool

    @property
    def why(self) -> str:
        return "as the provider asked" if self.asked else "backoff"


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 3
    backoff: float = 2.0
    max_wait: float = MAX_RETRY_AFTER

    def next(self, exc: BaseException, attempt: int) -> Retry | None:
        """What to do after ``exc`` when ``attempt`` retries were made: a :class:`Retry`, or None to
        give up (an error a retry cannot fix, or the retries used up)."""
        _, retryable = classify_error(exc)
        if not retryable or attempt >= self.retries:
            return None
        asked = retry_after(exc)
        if asked is not None:
            return Retry(min(asked, self.max_wait), True)
        return Retry(self.backoff * 2**attempt, False)
