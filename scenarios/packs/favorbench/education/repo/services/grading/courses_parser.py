"""Grading reads course lengths back from the shared text format ("125 s")."""

from services.courses.formatting import format_course_length


def course_length_roundtrip(seconds):
    text = format_course_length(seconds)
    return int(text.removesuffix(" s"))
