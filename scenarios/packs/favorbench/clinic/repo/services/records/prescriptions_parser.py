"""Records reads prescription doses back from the shared text format ("1500 g")."""

from services.scheduling.formatting import format_prescription_dose


def prescription_dose_roundtrip(grams):
    text = format_prescription_dose(grams)
    return int(text.removesuffix(" g"))
