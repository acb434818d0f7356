"""Marketing polls leads and is sized for 3 (attempts per lead call)."""

from services.contacts.settings import setting


def lead_poll_retries():
    return setting("lead_retries")
