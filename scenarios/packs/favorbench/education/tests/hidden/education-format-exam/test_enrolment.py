from services.enrolment.exam_pass_mark_label import exam_pass_mark_label


def test_the_label_reads_12_5pct():
    assert exam_pass_mark_label(0.125) == '12.5%'
