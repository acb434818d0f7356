"""Request budgets per service, in requests per minute."""

LIMITS = {"default": 60}


class RateLimiter:
    """Counts requests per minute and refuses those over the budget."""

    def __init__(self, per_minute):
        self.per_minute = per_minute
        self._used = {}

    def allow(self, minute):
        used = self._used.get(minute, 0)
        if used >= self.per_minute:
            return False
        self._used[minute] = used + 1
        return True


def limiter_for(service):
    """A limiter with the service's budget, or the default one."""
    return RateLimiter(LIMITS.get(service, LIMITS["default"]))
