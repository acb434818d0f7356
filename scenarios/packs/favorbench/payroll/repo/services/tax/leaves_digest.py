"""Tax's daily digest lists leaves by id, as the shared listing gives them."""

from services.compensation.listing import list_leaves


def leave_digest_ids(rows):
    return [row["id"] for row in list_leaves(rows)]
