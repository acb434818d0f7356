"""Recommendations imports old tracks whose codes are short and lower-case, like "x7"."""

from services.catalog.validation import valid_track_code


def importable(codes):
    return [code for code in codes if valid_track_code(code)]
