from services.enrolment.tuition_quote import tuition_quote


def test_quotes_use_the_tier_rate():
    assert tuition_quote(4, "express") == 36
    assert tuition_quote(2, "standard") == 8
