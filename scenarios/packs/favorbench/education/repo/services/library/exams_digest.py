"""Library's daily digest lists exams by id, as the shared listing gives them."""

from services.courses.listing import list_exams


def exam_digest_ids(rows):
    return [row["id"] for row in list_exams(rows)]
