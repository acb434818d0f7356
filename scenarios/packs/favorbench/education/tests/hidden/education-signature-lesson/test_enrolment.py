from services.enrolment.lesson_quote import lesson_quote


def test_quotes_use_the_tier_rate():
    assert lesson_quote(4, "express") == 48
    assert lesson_quote(2, "standard") == 10
