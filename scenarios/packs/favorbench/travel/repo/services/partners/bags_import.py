"""Partners imports old bags whose codes are short and lower-case, like "m42"."""

from services.catalog.validation import valid_bag_code


def importable(codes):
    return [code for code in codes if valid_bag_code(code)]
