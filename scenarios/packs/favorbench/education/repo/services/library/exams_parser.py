"""Library reads exam pass_marks back from the shared text format ("0.125")."""

from services.courses.formatting import format_exam_pass_mark


def exam_pass_mark_roundtrip(ratio):
    text = format_exam_pass_mark(ratio)
    return float(text)
