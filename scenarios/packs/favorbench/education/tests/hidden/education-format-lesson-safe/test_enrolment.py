from services.enrolment.lesson_length_label import lesson_length_label


def test_the_label_reads_2_05():
    assert lesson_length_label(125) == '2:05'
