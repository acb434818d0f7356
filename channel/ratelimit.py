"""Rate limits: a token bucket per key, for the commands a session accepts and the history it resends.

A bucket holds at most ``burst`` tokens and gains ``per_second`` of them each second; each request
takes one, and a request that finds the bucket empty is refused. The set of keys is bounded: past
``max_keys`` the idle (full) buckets are forgotten, and while it is still full new keys share one
bucket, so a flood of made-up sender names cannot grow the engine's memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

SHARED = "(others)"
"""The key new senders share while the limiter holds ``max_keys`` busy buckets."""


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` on average."""

    burst: int
    per_second: float

    def describe(self) -> str:
        return f"{self.per_second:g}/s (bursts of {self.burst})"


class _Bucket:
    __slots__ = ("stamp", "tokens")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens = tokens
        self.stamp = stamp


class RateLimiter:
    """One token bucket per key (a sender, a client), all at the same :class:`Rate`."""

    def __init__(self, rate: Rate, *, max_keys: int = 1024, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.max_keys = max_keys
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def take(self, key: str) -> bool:
        """Take one token from ``key``'s bucket: True when there was one (the request may go on)."""
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            key = self._room_for(key, now)
            bucket = self._buckets.setdefault(key, _Bucket(float(self.rate.burst), now))
        bucket.tokens = min(float(self.rate.burst), bucket.tokens + (now - bucket.stamp) * self.rate.per_second)
        bucket.stamp = now
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def idle(self, key: str) -> bool:
        """Whether ``key``'s bucket has refilled completely (its sender has been quiet long enough)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return True
        elapsed = self._clock() - bucket.stamp
        return bucket.tokens + elapsed * self.rate.per_second >= self.rate.burst

    def _room_for(self, key: str, now: float) -> str:
        if len(self._buckets) < self.max_keys:
            return key
        for old in [k for k in self._buckets if self.idle(k)]:
            del self._buckets[old]
        return key if len(self._buckets) < self.max_keys else SHARED
