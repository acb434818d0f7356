from services.enrolment.course_length_label import course_length_label


def test_the_label_reads_2_05():
    assert course_length_label(125) == '2:05'
