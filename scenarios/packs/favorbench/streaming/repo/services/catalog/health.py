"""Health checks every service exposes."""


def status(checks):
    """"ok" when every check (name -> bool) passed, else "degraded"."""
    return "ok" if all(checks.values()) else "degraded"
