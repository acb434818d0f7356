"""Records's daily digest lists prescriptions by id, as the shared listing gives them."""

from services.scheduling.listing import list_prescriptions


def prescription_digest_ids(rows):
    return [row["id"] for row in list_prescriptions(rows)]
