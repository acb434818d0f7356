"""Tax polls employees and is sized for 3 (attempts per employee call)."""

from services.compensation.settings import setting


def employee_poll_retries():
    return setting("employee_retries")
