"""Timetable's daily digest lists courses by id, as the shared listing gives them."""

from services.courses.listing import list_courses


def course_digest_ids(rows):
    return [row["id"] for row in list_courses(rows)]
