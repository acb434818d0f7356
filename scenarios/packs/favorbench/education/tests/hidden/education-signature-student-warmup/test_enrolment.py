from services.enrolment.student_quote import student_quote


def test_quotes_use_the_tier_rate():
    assert student_quote(4, "express") == 32
    assert student_quote(2, "standard") == 6
