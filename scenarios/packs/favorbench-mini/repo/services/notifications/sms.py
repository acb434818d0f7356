"""SMS sending. The SMS provider allows 60 messages a minute and bans senders above that."""

from services.platform.ratelimit import limiter_for


def make_sender():
    """A sender: send(minute) -> True if the SMS may go out this minute."""
    limiter = limiter_for("notifications")
    return limiter.allow
