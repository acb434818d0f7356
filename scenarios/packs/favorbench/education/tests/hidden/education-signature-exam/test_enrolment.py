from services.enrolment.exam_quote import exam_quote


def test_quotes_use_the_tier_rate():
    assert exam_quote(4, "express") == 32
    assert exam_quote(2, "standard") == 6
