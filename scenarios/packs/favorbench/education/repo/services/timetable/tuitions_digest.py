"""Timetable's daily digest lists tuitions by id, as the shared listing gives them."""

from services.courses.listing import list_tuitions


def tuition_digest_ids(rows):
    return [row["id"] for row in list_tuitions(rows)]
