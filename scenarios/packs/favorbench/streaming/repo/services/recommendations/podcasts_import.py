"""Recommendations imports old podcasts whose codes are short and lower-case, like "ab12"."""

from services.catalog.validation import valid_podcast_code


def importable(codes):
    return [code for code in codes if valid_podcast_code(code)]
