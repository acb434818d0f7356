"""Reminders's daily digest lists visits by id, as the shared listing gives them."""

from services.scheduling.listing import list_visits


def visit_digest_ids(rows):
    return [row["id"] for row in list_visits(rows)]
