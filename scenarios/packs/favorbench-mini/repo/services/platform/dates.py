"""Date formatting shared by all services."""

import datetime as dt


def format_date(day):
    """A date as text, e.g. 2024-01-05."""
    return day.strftime("%Y-%m-%d")


def parse_date(text):
    """The inverse of format_date."""
    return dt.date.fromisoformat(text)
