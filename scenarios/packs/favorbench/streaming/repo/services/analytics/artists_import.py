"""Analytics imports old artists whose codes are short and lower-case, like "ab12"."""

from services.catalog.validation import valid_artist_code


def importable(codes):
    return [code for code in codes if valid_artist_code(code)]
