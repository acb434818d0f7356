"""Timetable's daily digest lists students by id, as the shared listing gives them."""

from services.courses.listing import list_students


def student_digest_ids(rows):
    return [row["id"] for row in list_students(rows)]
