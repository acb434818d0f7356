"""Benefits reads shift lengths back from the shared text format ("125 s")."""

from services.compensation.formatting import format_shift_length


def shift_length_roundtrip(seconds):
    text = format_shift_length(seconds)
    return int(text.removesuffix(" s"))
