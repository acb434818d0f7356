"""Timetable imports old tuitions whose codes are short and lower-case, like "ab12"."""

from services.courses.validation import valid_tuition_code


def importable(codes):
    return [code for code in codes if valid_tuition_code(code)]
