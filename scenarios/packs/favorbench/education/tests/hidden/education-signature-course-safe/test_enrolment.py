from services.enrolment.course_quote import course_quote


def test_quotes_use_the_tier_rate():
    assert course_quote(4, "express") == 48
    assert course_quote(2, "standard") == 10
