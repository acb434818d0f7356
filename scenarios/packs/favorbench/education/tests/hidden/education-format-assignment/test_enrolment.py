from services.enrolment.assignment_score_label import assignment_score_label


def test_the_label_reads_12_5pct():
    assert assignment_score_label(0.125) == '12.5%'
