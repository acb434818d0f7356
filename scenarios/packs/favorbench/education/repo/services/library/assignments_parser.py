"""Library reads assignment scores back from the shared text format ("0.125")."""

from services.courses.formatting import format_assignment_score


def assignment_score_roundtrip(ratio):
    text = format_assignment_score(ratio)
    return float(text)
