"""Dates shared by all services."""

import datetime as dt


def parse_date(text):
    """A date from ISO text (2024-01-05)."""
    return dt.date.fromisoformat(text)
