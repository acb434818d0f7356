"""Benefits's daily digest lists shifts by id, as the shared listing gives them."""

from services.compensation.listing import list_shifts


def shift_digest_ids(rows):
    return [row["id"] for row in list_shifts(rows)]
