from services.enrolment.student_attendance_label import student_attendance_label


def test_the_label_reads_12_5pct():
    assert student_attendance_label(0.125) == '12.5%'
