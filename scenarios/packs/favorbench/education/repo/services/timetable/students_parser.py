"""Timetable reads student attendances back from the shared text format ("0.125")."""

from services.courses.formatting import format_student_attendance


def student_attendance_roundtrip(ratio):
    text = format_student_attendance(ratio)
    return float(text)
