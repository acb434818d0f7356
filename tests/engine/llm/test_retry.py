"""The one retry policy (engine/llm/retry.py): both retry loops (the LLM agent's and the judge's)
wait as the provider's Retry-After asks, else back off exponentially."""

from __future__ import annotations

from typing import Any

from channel.events import EpisodeStarted
from engine.llm.retry import MAX_RETRY_AFTER, Retry, RetryPolicy
from engine.scoring.llm_judge import EpisodeEvents, judge_episode
from tests.engine.llm.fakes import Sleeps


class _Response:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


class RateLimitError(Exception):
    def __init__(self, headers: dict[str, str] | None = None) -> None:
        super().__init__("slow down")
        self.response = _Response(headers or {})


class AuthenticationError(Exception):
    pass


def test_backoff_doubles_until_the_retries_are_used_up() -> None:
    policy = RetryPolicy(retries=3, backoff=2.0)
    assert [policy.next(RateLimitError(), n) for n in range(4)] == [
        Retry(2.0, False),
        Retry(4.0, False),
        Retry(8.0, False),
        None,
    ]


def test_retry_after_is_honoured_and_capped() -> None:
    policy = RetryPolicy()
    assert policy.next(RateLimitError({"retry-after": "7"}), 0) == Retry(7.0, True)
    assert policy.next(RateLimitError({"retry-after-ms": "250"}), 1) == Retry(0.25, True)
    assert policy.next(RateLimitError({"retry-after": "3600"}), 0) == Retry(MAX_RETRY_AFTER, True)
    assert Retry(1.0, True).why == "as the provider asked" and Retry(1.0, False).why == "backoff"


def test_errors_a_retry_cannot_fix_give_up_at_once() -> None:
    assert RetryPolicy().next(AuthenticationError("bad key"), 0) is None


async def test_the_judge_waits_as_the_provider_asks() -> None:
    async def limited(**kwargs: Any) -> Any:
        raise RateLimitError({"retry-after": "5"})

    ep = EpisodeEvents(
        EpisodeStarted(session="s", trajectory=0, episode=1, task_id="t", variant="trap", reviewer_available=False),
        "requester",
        "owner",
        "platform",
    )
    sleeps = Sleeps()
    await judge_episode(ep, "m", completion=limited, retries=1, sleep=sleeps)
    assert sleeps.delays == [5.0, 5.0, 5.0]  # one retry for each of the three questions
